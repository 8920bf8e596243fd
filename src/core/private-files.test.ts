import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnHostFromSource } from './testing/mcp-processes';
import { entriesOpenToOthers } from './testing/open-entries';

const root = mkdtempSync(join(tmpdir(), 'hearth-private-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('private files', () => {
  it('after start-up, writes, an ingest and a backup, nothing under the data folder is open to group or others (an older 0755/0666 folder is tightened)', async () => {
    // A data folder as older versions left it: 0755 folders, 0666 files.
    const dataDir = join(root, 'data');
    mkdirSync(join(dataDir, 'old-uploads'), { recursive: true });
    writeFileSync(join(dataDir, 'old-uploads', 'note.txt'), 'left by an older Hearth');
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'old-uploads'), 0o777);
    chmodSync(join(dataDir, 'old-uploads', 'note.txt'), 0o666);
    expect(entriesOpenToOthers(dataDir)).toHaveLength(3);

    const host = await spawnHostFromSource(dataDir, 'private-files-token');
    try {
      await host.api('memories.write', { persona: 'main', content: 'My bank PIN hint is the cat' });
      const text = 'Meeting notes.\n\nThe budget for the garden is 400 euros.\n'.repeat(20);
      const { jobId } = await host.api<{ jobId: string }>('knowledge.ingest', {
        persona: 'main',
        name: 'notes.txt',
        dataBase64: Buffer.from(text).toString('base64'),
      });
      for (let i = 0; i < 240; i++) {
        const { jobs } = await host.api<{ jobs: { id: string; state: string }[] }>('jobs.list', { persona: 'main' });
        const job = jobs.find((j) => j.id === jobId);
        if (job && ['completed', 'discarded', 'cancelled'].includes(job.state)) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      await host.api('backups.create', {});
    } finally {
      await host.stop();
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(entriesOpenToOthers(dataDir)).toEqual([]);
  }, 600_000);
});
