// One cache of migrated, empty data folders for every kind of test: the unit
// tests (core.ts) and the end-to-end tests (e2e/template.ts) copy the same
// folder. Copying ~40 MB and opening an existing cluster is far cheaper than
// initdb (~4–6 s) or restoring a gzip dump (~2 s, see docs/testing.md).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findMigrationsDir, readMigrations } from '../db/migrate';

/** The packages whose build decides what a fresh cluster looks like on disk. */
const ENGINE_PACKAGES = ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', '@electric-sql/pglite-pg_textsearch'];

/**
 * Changes whenever a fresh data folder would differ: a migration added or
 * edited, or PGlite (or one of its extensions) upgraded. A stale template
 * would otherwise hide a migration bug or an on-disk format change.
 */
export function templateKey(): string {
  const migrations = findMigrationsDir();
  const root = dirname(migrations);
  const hash = createHash('sha256');
  for (const m of readMigrations(migrations)) hash.update(m.name).update(m.checksum);
  for (const pkg of ENGINE_PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string };
    hash.update(`${pkg}@${manifest.version}`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A data folder that `make(dir)` created, migrated and closed cleanly, kept in
 * the temp folder across runs under `templateKey()`. Callers copy it (see
 * copyTemplate); nobody opens it in place. Two processes making it at once
 * both succeed: the first rename wins, the other uses that copy.
 */
export async function dataDirTemplate(make: (dir: string) => Promise<void>): Promise<string> {
  const final = join(tmpdir(), `hearth-template-${templateKey()}`);
  if (existsSync(join(final, 'pgdata', 'PG_VERSION'))) return final;
  const dir = mkdtempSync(join(tmpdir(), 'hearth-template-tmp-'));
  try {
    await make(dir);
    if (!existsSync(join(dir, 'pgdata', 'PG_VERSION'))) throw new Error(`the template in ${dir} has no cluster`);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  try {
    renameSync(dir, final);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    if (!existsSync(join(final, 'pgdata', 'PG_VERSION'))) throw e;
  }
  return final;
}

/** Copies a template into `dest` (created if missing), keeping the files' private modes. */
export function copyTemplate(template: string, dest: string): void {
  cpSync(template, dest, { recursive: true });
}
