import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Creates the data folder private (0700) and tightens one left by an older
 * Hearth, which created it 0755 with 0666 files (WAL included): folders become
 * 0700 and files 0600. Symlinks are not followed. Returns how many entries
 * were changed. See docs/data-safety.md.
 */
export function makeDataDirPrivate(dataDir: string): number {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let changed = 0;
  const visit = (path: string): void => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // removed meanwhile
    }
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o077) !== 0 || (st.mode & want) !== want) {
      chmodSync(path, (st.mode & 0o700 & ~0o077) | want);
      changed++;
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dataDir);
  return changed;
}
