import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { makeTestCore, templateCopy, type TestCore } from '../testing/core';
import { findMigrationsDir } from './migrate';

let core: TestCore | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await core?.dispose();
  core = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temp folder removed after the test. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A data folder as the current version leaves it (migrated, closed): a copy of the test template. */
async function migratedDir(): Promise<string> {
  const dir = await templateCopy();
  dirs.push(dir);
  return dir;
}

function copyMigrations(): string {
  const dir = tempDir('hearth-migrations-');
  for (const f of readdirSync(findMigrationsDir())) copyFileSync(join(findMigrationsDir(), f), join(dir, f));
  return dir;
}

describe('migrations', () => {
  it('apply the whole schema on an empty database, once', async () => {
    core = await makeTestCore();
    const { rows } = await core.ctx.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(readdirSync(findMigrationsDir()).filter((f) => f.endsWith('.sql')).sort());
    const { rows: tables } = await core.ctx.db.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    expect(tables.map((t) => t.tablename)).toEqual(
      expect.arrayContaining(['conversations', 'jobs', 'knowledge_chunks', 'memories', 'messages', 'personas', 'settings', 'user_models']),
    );
    const { rows: idx } = await core.ctx.db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'memories'`);
    const defs = idx.map((i) => i.indexdef).join('\n');
    expect(defs).toMatch(/USING gin \(search_vector\)/);
    expect(defs).toMatch(/USING hnsw \(embedding vector_cosine_ops\) WHERE/);
    expect(defs).toMatch(/USING hnsw \(\(\(subvector\(embedding, 1, 512\)\)::vector\(512\)\) vector_cosine_ops\) WHERE/);
    expect(defs).toMatch(/\(persona, importance, inserted_at\)/);
    expect(defs).toMatch(/USING bm25/);
    // `main` always exists
    const personas = await core.call('personas.list', {});
    expect(personas.map((p) => p.id)).toEqual(['main']);
  });

  it('restart applies nothing twice and keeps the data', async () => {
    // An empty folder, as on a first launch: the one test here that runs initdb itself.
    const dir = tempDir('hearth-test-');
    const first = await createCore({ dataDir: dir });
    await first.call('personas.create', { name: 'Trader' });
    await first.close();
    const second = await createCore({ dataDir: dir });
    const { rows } = await second.ctx.db.query<{ n: number }>('SELECT count(*) AS n FROM schema_migrations');
    expect(rows[0]!.n).toBe(readdirSync(findMigrationsDir()).filter((f) => f.endsWith('.sql')).length);
    expect((await second.call('personas.list', {})).map((p) => p.name)).toEqual(['main', 'Trader']);
    await second.close();
  }, 180_000); // initdb and two starts: minutes on a loaded two-core machine

  it('refuse to start when the recorded history is not a prefix of the files', async () => {
    const migrationsDir = copyMigrations();
    const dir = await migratedDir();
    const first = await createCore({ dataDir: dir, migrationsDir });
    // a migration recorded that this version does not ship
    await first.ctx.db.query(`INSERT INTO schema_migrations (name, checksum) VALUES ('0999_from_the_future.sql', 'x')`);
    await first.close();
    await expect(createCore({ dataDir: dir, migrationsDir })).rejects.toMatchObject({ code: 'migration_failed' });
  });

  it('refuse to start when an applied migration was edited', async () => {
    const migrationsDir = copyMigrations();
    const dir = await migratedDir();
    const first = await createCore({ dataDir: dir, migrationsDir });
    await first.close();
    writeFileSync(join(migrationsDir, '0001_init.sql'), '-- edited\n', { flag: 'a' });
    await expect(createCore({ dataDir: dir, migrationsDir })).rejects.toThrow(/changed after it was applied/);
  });

  it('apply a new migration inside a transaction: a failing one leaves nothing behind', async () => {
    const migrationsDir = copyMigrations();
    writeFileSync(join(migrationsDir, '0900_broken.sql'), 'CREATE TABLE half_done (x int);\nSELECT * FROM no_such_table;\n');
    const dir = await migratedDir();
    await expect(createCore({ dataDir: dir, migrationsDir })).rejects.toThrow(/0900_broken.sql failed/);
    const ok = copyMigrations();
    const again = await createCore({ dataDir: dir, migrationsDir: ok });
    const { rows } = await again.ctx.db.query(`SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`);
    expect(rows).toHaveLength(0);
    await again.close();
  });
});

describe('data-dir lock', () => {
  it('refuses a second owner of the same data directory with a clear message', async () => {
    core = await makeTestCore();
    await expect(createCore({ dataDir: core.dataDir })).rejects.toMatchObject({
      code: 'locked',
      message: expect.stringContaining('already open'),
    });
  });
});
