// A data folder whose database went missing or empty while its backups are
// still there is never started empty without the person choosing it
// (docs/data-safety.md, "Telling the person").
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { makeTestCore } from '../testing/core';
import { spawnHostFromSource } from '../testing/mcp-processes';
import type { MemoryPage } from '../../shared/api';

let healthy = '';
let backupId = '';
const made: string[] = [];

beforeAll(async () => {
  const core = await makeTestCore();
  for (let i = 0; i < 3; i++) await core.call('memories.write', { persona: 'main', content: `a backed-up memory ${i}` });
  backupId = (await core.call('backups.create', {})).id;
  await core.close();
  healthy = core.dataDir;
}, 300_000);

afterAll(() => {
  for (const d of [healthy, ...made]) if (d) rmSync(d, { recursive: true, force: true });
});

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-missing-'));
  cpSync(healthy, dir, { recursive: true });
  made.push(dir);
  return dir;
}

const memoryCount = async (core: Awaited<ReturnType<typeof createCore>>) =>
  (await core.call('memories.list', { persona: 'main', limit: 100 })).items.length;

describe('a missing or empty database beside backups', () => {
  it('is refused, naming the newest backup and what it holds, and nothing is created or removed', async () => {
    const missing = copy();
    rmSync(join(missing, 'pgdata'), { recursive: true });
    const empty = copy();
    rmSync(join(empty, 'pgdata'), { recursive: true });
    mkdirSync(join(empty, 'pgdata'));
    for (const [dir, state] of [[missing, 'missing'], [empty, 'empty']] as const) {
      const backups = readdirSync(join(dir, 'backups')).sort();
      await expect(createCore({ dataDir: dir })).rejects.toMatchObject({
        code: 'data_missing',
        message: expect.stringMatching(
          new RegExp(`pgdata is ${state}, but backups of it are in .*did not start with an empty database.*${backupId} \\(taken .* UTC, holding 3 memories in 1 persona`, 's'),
        ),
        details: { canStartEmpty: true, newestBackup: { id: backupId, counts: { memories: 3 } } },
      });
      expect(readdirSync(join(dir, 'backups')).sort()).toEqual(backups);
      expect(existsSync(join(dir, 'pgdata')) ? readdirSync(join(dir, 'pgdata')) : []).toEqual([]);
    }
  }, 300_000);

  it('restores the newest backup when the person chooses it, and starts empty only on the explicit choice', async () => {
    const dir = copy();
    rmSync(join(dir, 'pgdata'), { recursive: true });
    const restored = await createCore({ dataDir: dir, restoreBackup: 'newest', dailyBackups: false });
    try {
      expect(await memoryCount(restored)).toBe(3);
      expect((await restored.call('app.info', {})).notices.join('\n')).toMatch(new RegExp(`restored the backup ${backupId}`));
    } finally {
      await restored.close();
    }

    const other = copy();
    rmSync(join(other, 'pgdata'), { recursive: true });
    const fresh = await createCore({ dataDir: other, startEmpty: true, dailyBackups: false });
    try {
      expect(await memoryCount(fresh)).toBe(0);
      // The backups are still there to restore from.
      expect((await fresh.call('backups.list', {})).map((b) => b.id)).toEqual([backupId]);
    } finally {
      await fresh.close();
    }
    // Once chosen, the new database is an ordinary one: the next start opens it without asking again.
    const again = await createCore({ dataDir: other, dailyBackups: false });
    await again.close();
  }, 300_000);

  it('the browser host says how to answer: --restore-backup with the backup id, or --start-empty; the first restores it', async () => {
    const dir = copy();
    rmSync(join(dir, 'pgdata'), { recursive: true });
    const refused = await spawnHostFromSource(dir, 'missing-token-0123456789').then(
      () => 'started',
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/Hearth cannot start: The database folder .*pgdata is missing/);
    expect(refused).toContain(`start Hearth again with: --restore-backup ${backupId}`);
    expect(refused).toContain('start it with: --start-empty');
    expect(existsSync(join(dir, 'pgdata'))).toBe(false);

    const host = await spawnHostFromSource(dir, 'missing-token-0123456789', 240_000, 0, ['--restore-backup', backupId]);
    try {
      expect((await host.api<MemoryPage>('memories.list', { persona: 'main', limit: 10 })).items).toHaveLength(3);
    } finally {
      host.child.kill('SIGTERM');
      await new Promise((r) => host.child.once('exit', r));
    }
  }, 300_000);
});
