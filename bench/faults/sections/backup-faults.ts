// Faults around backups: the disk fills up during a backup and during a
// restore (a small tmpfs, where it can be mounted), and a damaged backup.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackupInfo, MemoryPage } from '../../../src/shared/api';
import { spawnHostFromSource } from '../../../src/core/testing/mcp-processes';
import type { FaultSection } from '../index';

function du(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

async function expectError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  }
}

export default {
  name: 'backup faults',
  async run() {
    const mnt = mkdtempSync(join(tmpdir(), 'hearth-tmpfs-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=400m', 'tmpfs', mnt]);
    } catch {
      rmSync(mnt, { recursive: true, force: true });
      return { 'disk full': 'not measured: cannot mount a tmpfs here (needs root)' };
    }
    const dataDir = join(mnt, 'data');
    mkdirSync(dataDir);
    const host = await spawnHostFromSource(dataDir, 'faults-token');
    const figures: Record<string, number | string> = {};
    try {
      for (let i = 0; i < 10; i++) await host.api('memories.write', { persona: 'main', content: `fault memory ${i}` });
      const good = await host.api<BackupInfo>('backups.create', {});
      const count = async () => (await host.api<MemoryPage>('memories.list', { persona: 'main', limit: 100 })).items.length;

      // Leave ~8 MB free: a backup (archive + scratch copy) cannot fit.
      const size = du(mnt);
      execFileSync('mount', ['-o', `remount,size=${Math.ceil((size + 8 * 1024 * 1024) / 4096) * 4096}`, mnt]);
      figures['backup on a full disk'] = await expectError(host.api('backups.create', {}));
      figures['restore on a full disk'] = await expectError(host.api('backups.restore', { id: good.id }));
      figures['memories intact after both (of 10)'] = await count();
      figures['host still answering'] = String((await host.api<unknown[]>('personas.list', {})).length === 1);
      execFileSync('mount', ['-o', 'remount,size=400m', mnt]);
      const again = await host.api<BackupInfo>('backups.create', {});
      figures['backup after space returned, verified'] = String(again.verified);
      await host.api('memories.write', { persona: 'main', content: 'after space returned' });
      await host.api('backups.restore', { id: good.id });
      figures['restore after space returned: memories'] = await count();

      // A damaged archive: refused, nothing changed.
      const archive = join(dataDir, 'backups', `${again.id}.tar.gz`);
      truncateSync(archive, Math.floor(readFileSync(archive).byteLength / 3));
      figures['truncated backup restore'] = await expectError(host.api('backups.restore', { id: again.id }));
      figures['memories after refused restore (of 10)'] = await count();
      writeFileSync(join(dataDir, 'backups', 'not-a-backup.json'), '{');
    } finally {
      await host.stop();
      execFileSync('umount', [mnt]);
      rmSync(mnt, { recursive: true, force: true });
    }
    return figures;
  },
} satisfies FaultSection;
