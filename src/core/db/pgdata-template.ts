// A migrated, empty database kept beside the app, copied into a new data
// folder instead of running initdb and every migration there: initdb is most
// of a first launch (docs/first-launch.md). The copy is private (0700/0600),
// synced and renamed into place, so a cut-short copy is never taken for a
// database.
import { createHash } from 'node:crypto';
import { chmod, copyFile, open } from 'node:fs/promises';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findMigrationsDir, readMigrations } from './migrate';

/** The packages whose build decides what a fresh cluster looks like on disk. */
const ENGINE_PACKAGES = ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', '@electric-sql/pglite-pg_textsearch'];

/** Where a copy is made before it is renamed to `pgdata`: left by a stop mid-copy, it is removed and made again. */
const PARTIAL = '.from-template';

/**
 * Changes whenever a fresh data folder would differ: a migration added or
 * edited, or PGlite (or one of its extensions) upgraded. A template made under
 * another key is never used.
 */
export function templateKey(migrationsDir = findMigrationsDir()): string {
  const root = dirname(migrationsDir);
  const hash = createHash('sha256');
  for (const m of readMigrations(migrationsDir)) hash.update(m.name).update(m.checksum);
  for (const pkg of ENGINE_PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string };
    hash.update(`${pkg}@${manifest.version}`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The folder holding the app's templates: `out/pgdata-template` beside the migrations (scripts/pgdata-template.ts makes it). */
export function appTemplatesDir(migrationsDir = findMigrationsDir()): string {
  return join(dirname(migrationsDir), 'out', 'pgdata-template');
}

/** The app's template for this build, or null when there is none (a clone before its first build) or it cannot be told. */
export function appTemplate(migrationsDir?: string): string | null {
  try {
    const dir = migrationsDir ?? findMigrationsDir();
    const template = join(appTemplatesDir(dir), templateKey(dir));
    return existsSync(join(template, 'pgdata', 'PG_VERSION')) ? template : null;
  } catch {
    return null;
  }
}

/**
 * Makes the template for this build in `root` with `make(dir)` (open a data folder, migrate, close) unless it
 * exists, and removes templates of other builds there. Returns its folder.
 */
export async function buildAppTemplate(make: (dataDir: string) => Promise<void>, root = appTemplatesDir()): Promise<string> {
  const key = templateKey();
  const final = join(root, key);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  if (!existsSync(join(final, 'pgdata', 'PG_VERSION'))) {
    const dir = join(root, `${key}${PARTIAL}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { mode: 0o700 });
    try {
      await make(dir);
      if (!existsSync(join(dir, 'pgdata', 'PG_VERSION'))) throw new Error(`the template in ${dir} has no cluster`);
      // Only the cluster: secrets, backups and the lock belong to a user's folder.
      for (const name of readdirSync(dir)) if (name !== 'pgdata') rmSync(join(dir, name), { recursive: true, force: true });
      rmSync(final, { recursive: true, force: true });
      renameSync(dir, final);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }
  for (const name of readdirSync(root)) if (name !== key) rmSync(join(root, name), { recursive: true, force: true });
  return final;
}

function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a folder; the rename is still atomic.
  } finally {
    closeSync(fd);
  }
}

/** The files under `dir`, relative, and its folders, parents first. */
function tree(dir: string, rel = '', files: string[] = [], dirs: string[] = ['']): { files: string[]; dirs: string[] } {
  for (const name of readdirSync(join(dir, rel))) {
    const r = join(rel, name);
    if (statSync(join(dir, r)).isDirectory()) {
      dirs.push(r);
      tree(dir, r, files, dirs);
    } else files.push(r);
  }
  return { files, dirs };
}

/**
 * Copies a tree private (folders 0700, files 0600), each file synced, then each folder. The files go a few at
 * a time on the thread pool: a thousand small files synced one after another cost seconds.
 */
async function copyPrivate(from: string, to: string): Promise<void> {
  const { files, dirs } = tree(from);
  for (const d of dirs) mkdirSync(join(to, d), { mode: 0o700 });
  let next = 0;
  const copyOne = async (rel: string) => {
    await copyFile(join(from, rel), join(to, rel));
    // The template's own modes do not matter: the copy is the user's (docs/data-safety.md).
    await chmod(join(to, rel), 0o600);
    const fh = await open(join(to, rel), 'r+');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  };
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < files.length) await copyOne(files[next++]!);
  }));
  for (const d of dirs.reverse()) syncPath(join(to, d));
}

/**
 * Fills a new data folder's `pgdata` (missing or empty; checkDataFolder has
 * refused a damaged one before) with a copy of `template`. Returns false, and
 * leaves the folder as it was, when the template has no cluster.
 */
export async function seedFromTemplate(pgdata: string, template: string): Promise<boolean> {
  const from = join(template, 'pgdata');
  if (!existsSync(join(from, 'PG_VERSION'))) return false;
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) return false;
  const partial = `${pgdata}${PARTIAL}`;
  rmSync(partial, { recursive: true, force: true });
  await copyPrivate(from, partial);
  if (existsSync(pgdata)) rmdirSync(pgdata);
  renameSync(partial, pgdata);
  syncPath(dirname(pgdata));
  return true;
}
