// Damaged data folders opened as the app opens them. "Silently reset": Hearth started and showed
// fewer memories than the folder held, without refusing or saying anything. Target: 0.
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../../src/core/index';
import { checkIntegrity } from '../../../src/core/db/integrity';
import { isAppError } from '../../../src/shared/errors';
import type { FaultSection } from '../index';

const MEMORIES = 2000;

function overwrite(file: string, block: number, fill: number): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(8192, fill), 0, 8192, block * 8192);
  } finally {
    closeSync(fd);
  }
}

const section: FaultSection = {
  name: 'damaged-folders',
  async run() {
    const healthy = mkdtempSync(join(tmpdir(), 'hearth-faults-healthy-'));
    const made: string[] = [healthy];
    try {
      const core = await createCore({ dataDir: healthy });
      await core.ctx.db.exec(
        `INSERT INTO memories (persona, content, day) SELECT 'main', 'kept ' || g || ' ' || repeat('m', 200), '2026-01-01' FROM generate_series(1, ${MEMORIES}) g`,
      );
      await core.ctx.db.exec(
        `INSERT INTO jobs (queue, state, args) SELECT 'compaction', 'running', jsonb_build_object('pad', repeat('p', 400)) FROM generate_series(1, 200) g`,
      );
      const files = (await core.ctx.db.query<{ jobs: string; memories: string }>(
        `SELECT pg_relation_filepath('jobs') AS jobs, pg_relation_filepath('memories') AS memories`,
      )).rows[0]!;
      await core.close();
      const pg = (dir: string, rel: string) => join(dir, 'pgdata', rel);
      const cases: [string, (dir: string) => void][] = [
        ['PG_VERSION missing', (d) => unlinkSync(pg(d, 'PG_VERSION'))],
        ['PG_VERSION garbage', (d) => writeFileSync(pg(d, 'PG_VERSION'), 'xx')],
        ['pg_control missing', (d) => unlinkSync(pg(d, 'global/pg_control'))],
        ['pg_control cut short', (d) => writeFileSync(pg(d, 'global/pg_control'), readFileSync(pg(d, 'global/pg_control')).subarray(0, 512))],
        ['secrets.json empty', (d) => writeFileSync(join(d, 'secrets.json'), '')],
        ['secrets.json not an object', (d) => writeFileSync(join(d, 'secrets.json'), '[1,2')],
        ['garbage page in jobs', (d) => overwrite(pg(d, files.jobs), 0, 0x5a)],
        ['zeroed page in memories', (d) => overwrite(pg(d, files.memories), 3, 0)],
      ];
      let refused = 0;
      let startedWithNotice = 0;
      let silentlyReset = 0;
      let hiddenFoundByIntegrity = 0;
      const outcomes: string[] = [];
      for (const [name, damage] of cases) {
        const dir = mkdtempSync(join(tmpdir(), 'hearth-faults-damaged-'));
        made.push(dir);
        cpSync(healthy, dir, { recursive: true });
        damage(dir);
        try {
          // The check after start runs at once here (15 s after start in the app) and is waited for.
          const c = await createCore({ dataDir: dir, startupCheckDelayMs: 0 });
          try {
            const n = (await c.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories`)).rows[0]!.n;
            await c.startupChecked;
            const notices = (await c.call('app.info', {})).notices;
            if (notices.length) startedWithNotice++;
            if (n !== MEMORIES && !notices.length) {
              const found = !(await checkIntegrity(c.ctx.db)).ok;
              if (found) hiddenFoundByIntegrity++;
              else silentlyReset++;
              outcomes.push(`${name}: started with ${n} of ${MEMORIES} memories, integrity check ${found ? 'reports it' : 'SILENT'}`);
            } else {
              outcomes.push(`${name}: started, ${n} memories, ${notices.length ? `with a notice (${notices[0]!.slice(0, 90)}…)` : 'nothing lost'}`);
            }
          } finally {
            await c.close();
          }
        } catch (e) {
          if (isAppError(e) && e.code === 'data_damaged') refused++;
          outcomes.push(`${name}: refused (${isAppError(e) ? e.code : 'raw error'}: ${(e as Error).message.slice(0, 80)}…)`);
        }
      }
      for (const o of outcomes) process.stderr.write(`  ${o}\n`);
      return {
        cases: cases.length,
        silently_reset: silentlyReset,
        refused_with_message: refused,
        started_with_notice: startedWithNotice,
        rows_hidden_until_integrity_check: hiddenFoundByIntegrity,
      };
    } finally {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    }
  },
};
export default section;
