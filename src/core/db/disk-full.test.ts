import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { mountSmallDisk, type SmallDisk } from '../testing/small-disk';

// A real full disk: the data folder on a small tmpfs (needs root, as on our CI machine), filled
// up to its last 2 MB by another file.
let disk: SmallDisk | null = null;
let mnt = '';
let core: TestCore | null = null;
beforeAll(() => {
  disk = mountSmallDisk();
  mnt = disk.dir;
});
afterAll(async () => {
  await core?.dispose().catch(() => undefined);
  disk?.remove();
});

describe('disk full during a write', () => {
  it('answers disk_full, keeps what was stored, stays up, and works again once space returns', async () => {
    core = await makeTestCore({ dataDir: join(mnt, 'data') });
    await core.call('memories.write', { persona: 'main', content: 'stored before the disk filled' });
    const filler = join(mnt, 'filler');
    disk!.fill(filler, 2 << 20);

    let stored = 0;
    let refusal: unknown = null;
    for (let i = 0; i < 400 && !refusal; i++) {
      // Random text does not compress: each write needs fresh pages.
      const res = await core.dispatch('memories.write', { persona: 'main', content: `big ${randomBytes(9000).toString('hex')}` });
      if (res.ok) stored++;
      else refusal = res.error;
    }
    expect(refusal).toMatchObject({ code: 'disk_full', message: expect.stringMatching(/disk .* is full.*intact/) });

    // Still up: reads answer, and everything acknowledged is there.
    const count = async (like: string) =>
      (await core!.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE content LIKE $1`, [like])).rows[0]!.n;
    expect(await count('big %')).toBe(stored);
    expect(await count('stored before%')).toBe(1);

    rmSync(filler);
    await core.call('memories.write', { persona: 'main', content: 'written after space returned' });
    expect(await count('written after%')).toBe(1);
    expect(await count('big %')).toBe(stored);
  }, 300_000);
});
