import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Core, type CoreOptions, createCore } from '../index';
import { findMigrationsDir, readMigrations } from '../db/migrate';

export interface TestCore extends Core {
  dataDir: string;
  /** Closes the core and removes its temp directory. */
  dispose(): Promise<void>;
}

/**
 * A migrated empty data directory, dumped once per schema version and reused:
 * initdb costs ~4 s a database, loading the dump about half that.
 */
async function template(): Promise<Uint8Array> {
  const key = createHash('sha256')
    .update(readMigrations(findMigrationsDir()).map((m) => m.checksum).join())
    .digest('hex')
    .slice(0, 16);
  const file = join(tmpdir(), `hearth-template-${key}.tar.gz`);
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  // Dumped from a directory, not from memory: an in-memory dump loses the extensions.
  const dir = mkdtempSync(join(tmpdir(), 'hearth-template-'));
  const core = await createCore({ dataDir: dir });
  const dump = await core.ctx.db.dump();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, dump);
  renameSync(tmp, file);
  return dump;
}

/** A real core on a real PGlite in a fresh temp directory. */
export async function makeTestCore(options: Partial<CoreOptions> = {}): Promise<TestCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-test-'));
  const core = await createCore({ dataDir, loadFrom: await template(), dailyBackups: false, ...options });
  return Object.assign(core, {
    dataDir,
    async dispose() {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
