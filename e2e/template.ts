import { randomBytes } from 'node:crypto';
import { dataDirTemplate as sharedTemplate } from '../src/core/testing/template';
import { spawnHost } from './host-process';

/**
 * A data dir that was created, migrated and closed cleanly, kept in the temp
 * folder across runs (initdb costs 5–30 s on a busy machine; a copy, well under
 * one). The cache is the unit tests' own (src/core/testing/template.ts), keyed
 * on the migrations and the PGlite build; when e2e makes it first, the built
 * host does. Tests copy it; nobody opens it in place.
 */
export function dataDirTemplate(): Promise<string> {
  return sharedTemplate(async (dir) => {
    const host = await spawnHost({ dataDir: dir, token: randomBytes(24).toString('base64url') });
    const code = await host.stop();
    if (code !== 0) throw new Error(`the template host did not shut down cleanly (code ${code}):\n${host.output()}`);
  });
}
