import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Entries under `dir` that group or others can read, write or enter (docs/data-safety.md): what the private data folder must never hold. */
export function entriesOpenToOthers(dir: string): string[] {
  const open: string[] = [];
  const visit = (path: string): void => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) open.push(`${path} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return open;
}
