import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Core, type CoreOptions, createCore } from '../index';
import { copyTemplate, dataDirTemplate } from './template';

export interface TestCore extends Core {
  dataDir: string;
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

/** A real core on a real PGlite in a fresh temp directory. */
export async function makeTestCore(options: Partial<CoreOptions> = {}): Promise<TestCore> {
  // A copy of a migrated folder: opening it skips initdb and the dump restore (see template.ts).
  const dataDir = options.loadFrom ? mkdtempSync(join(tmpdir(), 'hearth-test-')) : await templateCopy();
  const core = await createCore({ dataDir, dailyBackups: false, ...options });
  return Object.assign(core, {
    dataDir,
    async dispose() {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
