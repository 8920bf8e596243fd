// A session of a real host (writes, an ingest, a backup): files under the data folder open to group or others.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entriesOpenToOthers } from '../../../src/core/testing/open-entries';
import { spawnHostFromSource } from '../../../src/core/testing/mcp-processes';
import type { FaultSection } from '../index';

export default {
  name: 'private files',
  async run() {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-private-bench-'));
    const host = await spawnHostFromSource(dataDir, 'private-bench-token-0123');
    try {
      for (let i = 0; i < 20; i++) await host.api('memories.write', { persona: 'main', content: `private memory ${i}` });
      await host.api('knowledge.ingest', { persona: 'main', name: 'n.txt', dataBase64: Buffer.from('Some notes.\n'.repeat(500)).toString('base64') });
      await host.api('backups.create', {});
    } finally {
      await host.stop();
    }
    const open = entriesOpenToOthers(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    return { 'files or folders readable/writable by others after a session': open.length, ...(open[0] ? { first: open[0] } : {}) };
  },
} satisfies FaultSection;
