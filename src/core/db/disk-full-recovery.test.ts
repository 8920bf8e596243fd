import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { mountSmallDisk, type SmallDisk } from '../testing/small-disk';

// A real full disk: the data folder on a small tmpfs (needs root, as on our CI machine).
let disk: SmallDisk | null = null;
let mnt = '';
let core: TestCore | null = null;
beforeAll(() => {
  disk = mountSmallDisk();
  mnt = disk.dir;
});
afterAll(async () => {
  // Bounded: where the database hangs (the failure this file tests for), the mount must still go.
  await Promise.race([core?.dispose().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
  disk?.remove();
});

describe('disk full while the log needs a new segment', () => {
  it('answers disk_full instead of hanging, and reads and writes work again once space is freed, without a restart', async () => {
    core = await makeTestCore({ dataDir: join(mnt, 'data') });
    await core.call('memories.write', { persona: 'main', content: 'stored before the disk filled' });
    const filler = join(mnt, 'filler');
    disk!.fill(filler);
    // The next commit must start a new 16 MB log segment, which no longer fits: Postgres PANICs.
    await core.ctx.db.query('SELECT pg_switch_wal()');
    const failed = await core.dispatch('memories.write', { persona: 'main', content: 'refused for lack of space' });
    expect(failed).toMatchObject({ ok: false, error: { code: 'disk_full' } });

    // Still full: reads answer disk_full in words (they used to hang for ever).
    const whileFull = await core.dispatch('memories.list', { persona: 'main' });
    expect(whileFull).toMatchObject({ ok: false, error: { code: 'disk_full', message: expect.stringMatching(/full.*nothing can be read.*Free some space.*intact/) } });

    rmSync(filler);
    const contents = async () => (await core!.call('memories.list', { persona: 'main' })).items.map((m) => m.content);
    expect(await contents()).toEqual(['stored before the disk filled']);
    await core.call('memories.write', { persona: 'main', content: 'written after space returned' });
    expect((await contents()).sort()).toEqual(['stored before the disk filled', 'written after space returned']);
  }, 120_000);
});
