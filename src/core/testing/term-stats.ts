// Hearth's own BM25 term statistics (migrations/0019) are kept only where
// pg_textsearch is missing. Tests and benches that compare both text indexes on
// one PGlite database apply here what such a server runs of that migration.
import type { Queryable } from '../db/client';
import { findMigrationsDir, readMigrations } from '../db/migrate';
import { sqlForFeatures } from '../db/migration-markers';

/** Starts keeping the term counts on this database (once; the rows already there are counted). */
export async function keepOwnTermStats(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ there: boolean }>(`SELECT to_regclass('bm25_stats') IS NOT NULL AS there`);
  if (rows[0]?.there) return;
  const file = readMigrations(findMigrationsDir()).find((f) => f.name.startsWith('0019_'));
  if (!file) throw new Error('migration 0019 (term statistics) not found');
  await db.exec(sqlForFeatures(file.sql, { vector: true, bm25: false }, file.name));
}
