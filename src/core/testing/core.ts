import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Core, type CoreOptions, createCore } from '../index';
import { testDatabase } from './server';
import { copyTemplate, dataDirTemplate } from './template';

export interface TestCore extends Core {
  dataDir: string;
  /** The PostgreSQL server database this core uses (HEARTH_TEST_DATABASE_URL); null on plain PGlite. */
  databaseUrl: string | null;
  /** Closes the core and removes its temp directory. */
  dispose(): Promise<void>;
}

/** Makes the shared template (template.ts) with the core itself: open, migrate, close. */
async function makeTemplate(dir: string): Promise<void> {
  const core = await createCore({ dataDir: dir, dailyBackups: false });
  await core.close();
}

/**
 * A fresh temp data directory holding a copy of the migrated, empty template,
 * not opened: for tests that open and reopen a folder with createCore themselves.
 */
export async function templateCopy(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-test-'));
  copyTemplate(await dataDirTemplate(makeTemplate), dataDir);
  return dataDir;
}

/**
 * A real core in a fresh temp directory: on a real PGlite, or — when
 * HEARTH_TEST_DATABASE_URL names one (testing/server.ts) — on a fresh database
 * of a PostgreSQL server, the data folder then holding only the secrets.
 */
export async function makeTestCore(options: Partial<CoreOptions> = {}): Promise<TestCore> {
  const server = options.loadFrom || options.databaseUrl
    ? null
    : await testDatabase({
        migrate: async (databaseUrl) => {
          const dir = mkdtempSync(join(tmpdir(), 'hearth-test-'));
          try {
            await (await createCore({ dataDir: dir, databaseUrl, dailyBackups: false })).close();
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
        pgliteTemplate: () => dataDirTemplate(makeTemplate),
      });
  // A copy of a migrated folder: opening it skips initdb and the dump restore (see template.ts).
  const dataDir = options.loadFrom || server || options.databaseUrl ? mkdtempSync(join(tmpdir(), 'hearth-test-')) : await templateCopy();
  let core: Core;
  try {
    core = await createCore({ dataDir, dailyBackups: false, ...(server ? { databaseUrl: server.url } : {}), ...options });
  } catch (e) {
    await server?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return Object.assign(core, {
    dataDir,
    databaseUrl: server?.url ?? options.databaseUrl ?? null,
    async dispose() {
      try {
        await core.close();
      } finally {
        await server?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  });
}
