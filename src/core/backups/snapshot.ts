// Opening a snapshot somewhere it cannot touch the live data, and reading what it holds.
import { PgliteDb, type Queryable } from '../db/client';
import { checkIntegrity } from '../db/integrity';
import type { BackupCounts } from './files';

const COUNTS_SQL = `SELECT
  (SELECT count(*) FROM personas)::int AS personas,
  (SELECT count(*) FROM memories)::int AS memories,
  (SELECT count(*) FROM knowledge_sources)::int AS "knowledgeSources",
  (SELECT count(*) FROM knowledge_chunks)::int AS "knowledgeChunks",
  (SELECT count(*) FROM conversations)::int AS conversations,
  (SELECT count(*) FROM messages)::int AS messages`;

export interface SnapshotReport {
  counts: BackupCounts;
  integrity: { ok: boolean; checked: number; problems: string[] };
  schema: string | null;
}

export async function readSnapshot(db: Queryable): Promise<SnapshotReport> {
  const counts = (await db.query<BackupCounts>(COUNTS_SQL)).rows[0]!;
  const schema =
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1')).rows[0]?.name ?? null;
  const integrity = await checkIntegrity(db);
  return { counts, integrity, schema };
}

/**
 * Opens an unpacked snapshot (a folder the live data is not in) in a fresh
 * database worker — Postgres replays the log the copy carries — and reports
 * its counts and integrity. The folder must hold a Hearth database: one
 * without (a stranger's tarball) is refused.
 */
export async function openSnapshot(at: string): Promise<SnapshotReport> {
  const db = await PgliteDb.open(at);
  try {
    const { rows } = await db.query<{ present: boolean }>(`SELECT to_regclass('public.schema_migrations') IS NOT NULL AS present`);
    if (!rows[0]?.present) throw new Error('the snapshot holds no Hearth database');
    return await readSnapshot(db);
  } finally {
    await db.close();
  }
}
