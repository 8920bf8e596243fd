import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../shared/errors';
import type { Db } from './client';

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
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrateOptions {
  /** Runs before the first pending migration of a database that already has some (a fresh one has nothing to lose). */
  beforeApplying?: (pending: string[]) => Promise<void>;
}

/**
 * Applies each migration not yet recorded, in order, each in its own
 * transaction. Refuses to start when the recorded history is not a prefix of
 * the files (a file removed, renamed, reordered or edited after it ran).
 */
export async function migrate(
  db: Pick<Db, 'exec' | 'query' | 'transaction'>,
  files: MigrationFile[],
  options: MigrateOptions = {},
): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
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
  for (const file of todo) {
    try {
      await db.transaction(async (tx) => {
        await tx.exec(file.sql);
        await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [file.name, file.checksum]);
      });
    } catch (e) {
      throw new AppError('migration_failed', `Migration ${file.name} failed: ${(e as Error).message}`);
    }
  }
  return todo.map((f) => f.name);
}
