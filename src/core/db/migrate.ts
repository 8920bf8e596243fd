import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../shared/errors';
import type { Db } from './client';
import { ALL_FEATURES } from './features';
import { sqlForFeatures, withoutMarkers } from './migration-markers';

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

const MIGRATION_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

/** The app's migrations folder: found upwards from this module, in source and in the build alike. */
export function findMigrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'migrations');
    if (existsSync(join(candidate, '0001_init.sql'))) return candidate;
    dir = dirname(dir);
  }
  throw new AppError('migration_failed', 'The migrations folder was not found next to the application.');
}

export function readMigrations(dir: string): MigrationFile[] {
  return readdirSync(dir)
    .filter((f) => MIGRATION_NAME.test(f))
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name), 'utf8');
      // Taken without the feature markers (migration-markers.ts): adding them kept every recorded checksum.
      return { name, sql, checksum: createHash('sha256').update(withoutMarkers(sql)).digest('hex') };
    });
}

export interface MigrateOptions {
  /** Runs before the first pending migration of a database that already has some (a fresh one has nothing to lose). */
  beforeApplying?: (pending: string[]) => Promise<void>;
}

/**
 * Several Hearths may upgrade one server at once: each step below runs in a
 * transaction holding this advisory lock, and re-reads what is recorded, so
 * each migration is applied once (docs/server-mode.md). The number is
 * arbitrary, fixed for Hearth.
 */
const MIGRATION_LOCK = 0x4865_6172; // "Hear"

/**
 * Applies each migration not yet recorded, in order, each in its own
 * transaction. Refuses to start when the recorded history is not a prefix of
 * the files (a file removed, renamed, reordered or edited after it ran).
 * Parts needing an extension the database lacks are left out (migration-markers.ts).
 */
export async function migrate(
  db: Pick<Db, 'exec' | 'query' | 'transaction'> & Partial<Pick<Db, 'features' | 'kind'>>,
  files: MigrationFile[],
  options: MigrateOptions = {},
): Promise<string[]> {
  const features = db.features ?? ALL_FEATURES;
  // One process owns a PGlite folder; a server is shared, so there each step takes the lock.
  const shared = db.kind === 'server';
  const lock = async (tx: Pick<Db, 'query'>) => {
    if (shared) await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  };
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  });
  const { rows: applied } = await db.query<{ name: string; checksum: string }>(
    'SELECT name, checksum FROM schema_migrations ORDER BY name',
  );
  applied.forEach((row, i) => {
    const file = files[i];
    if (!file || file.name !== row.name) {
      throw new AppError(
        'migration_failed',
        `The database was migrated with ${row.name}, which this version of Hearth does not have at that place ` +
          `(expected ${file?.name ?? 'no further migration'}). Refusing to start: the data directory belongs to a different version.`,
      );
    }
    if (file.checksum !== row.checksum) {
      throw new AppError('migration_failed', `Migration ${row.name} was changed after it was applied. Refusing to start.`);
    }
  });
  const todo = files.slice(applied.length);
  if (todo.length && applied.length && options.beforeApplying) await options.beforeApplying(todo.map((f) => f.name));
  const ran: string[] = [];
  for (const file of todo) {
    try {
      await db.transaction(async (tx) => {
        await lock(tx);
        if (shared) {
          // Another Hearth may have applied it while this one waited for the lock.
          const { rows } = await tx.query<{ checksum: string }>('SELECT checksum FROM schema_migrations WHERE name = $1', [file.name]);
          if (rows[0]) {
            if (rows[0].checksum !== file.checksum) {
              throw new AppError('migration_failed', `Migration ${file.name} was changed after it was applied. Refusing to start.`);
            }
            return;
          }
        }
        await tx.exec(sqlForFeatures(file.sql, features, file.name));
        await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [file.name, file.checksum]);
        ran.push(file.name);
      });
    } catch (e) {
      if (e instanceof AppError) throw e;
      throw new AppError('migration_failed', `Migration ${file.name} failed: ${(e as Error).message}`);
    }
  }
  return ran;
}
