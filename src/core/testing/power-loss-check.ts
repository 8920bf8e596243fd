// The second half of a power-loss trial, in its own process so that a hang
// is seen (src/core/testing/power-loss.ts gives it a deadline): reopen the
// folder as the app would, finish the migrations if that was the workload,
// run the integrity check and list what survived.
// Usage: node <its bundle, source-build.ts> '<json { dir, scenario }>'
import { clusterFileProblem } from '../db/cluster-files';
import { checkIntegrity } from '../db/integrity';
import { findMigrationsDir, migrate, readMigrations } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { pgliteQueryable } from './pglite-queryable';
import type { CheckOutcome, Scenario } from './power-loss';

const { dir, scenario } = JSON.parse(process.argv[2] ?? '') as { dir: string; scenario: Scenario };

async function check(): Promise<CheckOutcome> {
  // The app checks the cluster's bookkeeping files before opening (db/cluster-files.ts): a folder a power cut
  // left must never be refused by them.
  const refused = clusterFileProblem(dir);
  if (refused) return { keys: [], problems: [`refused at start: ${refused}`] };
  const { pg } = await openPglite(dir);
  try {
    const db = pgliteQueryable(pg);
    if (scenario === 'migration') {
      const { rows: before } = await db
        .query<{ name: string }>(`SELECT name FROM schema_migrations WHERE to_regclass('schema_migrations') IS NOT NULL`)
        .catch(() => ({ rows: [] as { name: string }[] }));
      // What the app does next at start-up: finish the migrations.
      await migrate(db, readMigrations(findMigrationsDir()));
      const report = await checkIntegrity(db);
      return { keys: before.map((r) => r.name), problems: report.problems };
    }
    const report = await checkIntegrity(db);
    const sql =
      scenario === 'writes'
        ? `SELECT split_part(content, ' ', 1) AS key FROM memories`
        : `SELECT 'source' AS key FROM knowledge_sources UNION ALL
           SELECT 'batch' || (chunk_index / 20) FROM knowledge_chunks GROUP BY chunk_index / 20 HAVING count(*) = 20`;
    const { rows } = await db.query<{ key: string }>(sql);
    return { keys: rows.map((r) => r.key), problems: report.problems };
  } finally {
    await pg.close();
  }
}

let out: CheckOutcome;
try {
  out = await check();
} catch (e) {
  out = { keys: [], problems: [], error: e instanceof Error ? e.message : String(e) };
}
process.stdout.write(`${JSON.stringify({ check: out })}\n`);
process.exit(0);
