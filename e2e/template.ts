import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, spawnHost } from './host-process';

/** Changes whenever a fresh database would differ: the migrations or the PGlite build. */
function schemaKey(): string {
  const hash = createHash('sha256');
  const dir = join(ROOT, 'migrations');
  for (const f of readdirSync(dir).sort()) hash.update(f).update(readFileSync(join(dir, f)));
  hash.update(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * A data dir that the built host created, migrated and closed cleanly, kept in
 * the temp folder across runs (initdb costs 5–30 s on a busy machine; a copy, well under one).
 * Tests copy it; nobody opens it in place.
 */
export async function dataDirTemplate(): Promise<string> {
  const final = join(tmpdir(), `hearth-e2e-template-${schemaKey()}`);
  if (existsSync(join(final, 'pgdata', 'PG_VERSION'))) return final;
  const dir = mkdtempSync(join(tmpdir(), 'hearth-e2e-template-tmp-'));
  try {
    const host = await spawnHost({ dataDir: dir, token: randomBytes(24).toString('base64url') });
    const code = await host.stop();
    if (code !== 0) throw new Error(`the template host did not shut down cleanly (code ${code}):\n${host.output()}`);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  try {
    renameSync(dir, final);
  } catch (e) {
    // Another worker finished first: use its copy.
    rmSync(dir, { recursive: true, force: true });
    if (!existsSync(final)) throw e;
  }
  return final;
}
