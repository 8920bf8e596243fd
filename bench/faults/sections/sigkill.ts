// kill -9 of a Hearth process while 4 writers commit: every write acknowledged before the kill must
// be there after reopening, and the integrity check must pass. Target: 0 lost.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore } from '../../../src/core/index';
import { checkIntegrity } from '../../../src/core/db/integrity';
import { prng } from '../../../src/core/testing/synthetic-corpus';
import type { FaultSection } from '../index';

const child = join(dirname(fileURLToPath(import.meta.url)), '..', 'sigkill-child.ts');

async function killedRun(dataDir: string, durable: boolean, afterMs: number): Promise<Set<string>> {
  const p = spawn(process.execPath, ['--import', 'tsx', child, dataDir, durable ? '1' : '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acked = new Set<string>();
  let buf = '';
  let stderr = '';
  p.stderr.on('data', (d: Buffer) => (stderr += d.toString()).length > 20_000 && (stderr = stderr.slice(-10_000)));
  await new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | null = null;
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const l of lines) {
        if (l.startsWith('A ')) acked.add(l.slice(2));
        if (l === 'READY' && !timer) timer = setTimeout(() => p.kill('SIGKILL'), afterMs);
      }
    });
    p.on('exit', () => resolve());
    p.on('error', reject);
    setTimeout(() => {
      if (!timer) {
        p.kill('SIGKILL');
        reject(new Error(`the writer never became ready: ${stderr.slice(-2000)}`));
      }
    }, 240_000);
  });
  return acked;
}

const section: FaultSection = {
  name: 'sigkill',
  async run({ quick, trials }) {
    const n = trials ?? (quick ? 2 : 20);
    const random = prng(42);
    let acknowledged = 0;
    let lost = 0;
    let integrityFailures = 0;
    for (let t = 0; t < n; t++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'hearth-sigkill-'));
      try {
        const durable = t % 2 === 1;
        const acked = await killedRun(dataDir, durable, 1000 + Math.floor(random() * 4000));
        const core = await createCore({ dataDir });
        try {
          const { rows } = await core.ctx.db.query<{ content: string }>(`SELECT content FROM memories WHERE content LIKE 'k-%'`);
          const present = new Set(rows.map((r) => r.content));
          const missing = [...acked].filter((c) => !present.has(c)).length;
          acknowledged += acked.size;
          lost += missing;
          if (!(await checkIntegrity(core.ctx.db)).ok) integrityFailures++;
          process.stderr.write(`  sigkill ${t + 1}/${n} (durable ${durable}): acknowledged ${acked.size}, lost ${missing}\n`);
        } finally {
          await core.close();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return { trials: n, acknowledged, lost, integrity_failures: integrityFailures };
  },
};
export default section;
