// kill -9 of a real host in the middle of a backup and of a restore: the next
// start finds a consistent database, either the state before or the restored one.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BackupInfo, MemoryPage } from '../../shared/api';
import { templateCopy } from '../testing/core';
import { type HostChild, spawnHostFromSource } from '../testing/mcp-processes';

let dataDir = '';
afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function killWhen(host: HostChild, seen: () => boolean, timeoutMs = 240_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (seen()) {
      host.child.kill('SIGKILL');
      await new Promise((r) => host.child.once('exit', r));
      return true;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

const contents = async (host: HostChild) =>
  (await host.api<MemoryPage>('memories.list', { persona: 'main', limit: 100 })).items.map((m) => m.content).sort();

describe('kill -9 during a backup and during a restore', () => {
  it('the next start opens a consistent database with nothing half-done left behind', async () => {
    // A migrated folder (a copy of the test template): the first start is not what is tested, and
    // initdb would be ~10 s of it (docs/testing.md).
    dataDir = await templateCopy();
    let host = await spawnHostFromSource(dataDir, 'kill-token-0123456789');
    for (const c of ['one', 'two', 'three']) await host.api('memories.write', { persona: 'main', content: `memory ${c}` });
    const backup = await host.api<BackupInfo>('backups.create', {});
    await host.api('memories.write', { persona: 'main', content: 'memory four' });
    const before = await contents(host);

    // 1. Killed while a backup is being written or verified.
    const backups = join(dataDir, 'backups');
    void host.api('backups.create', {}).catch(() => undefined);
    const midBackup = await killWhen(host, () => existsSync(backups) && readdirSync(backups).some((n) => n.endsWith('.partial')));
    expect(midBackup).toBe(true);
    host = await spawnHostFromSource(dataDir, 'kill-token-0123456789');
    expect(await contents(host)).toEqual(before);
    expect((await host.api<BackupInfo[]>('backups.list', {})).map((b) => b.id)).toEqual([backup.id]);
    expect(readdirSync(backups).filter((n) => n.endsWith('.partial'))).toEqual([]);
    expect(await host.api('data.checkIntegrity', {})).toMatchObject({ ok: true });

    // 2. Killed while the backup is being written out for a restore.
    void host.api('backups.restore', { id: backup.id }).catch(() => undefined);
    const midRestore = await killWhen(host, () => existsSync(join(dataDir, 'pgdata.restoring')));
    expect(midRestore).toBe(true);
    host = await spawnHostFromSource(dataDir, 'kill-token-0123456789');
    const after = await contents(host);
    // Either nothing happened, or the restore completed: never a mix, never empty.
    expect([before, ['memory one', 'memory three', 'memory two']]).toContainEqual(after);
    expect(existsSync(join(dataDir, 'pgdata.restoring'))).toBe(false);
    expect(await host.api('data.checkIntegrity', {})).toMatchObject({ ok: true });

    // 3. The restore runs to the end after all.
    await host.api('backups.restore', { id: backup.id });
    expect(await contents(host)).toEqual(['memory one', 'memory three', 'memory two']);
    await host.stop();
  }, 900_000);
});
