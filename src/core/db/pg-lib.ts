// node-postgres, loaded by the first server connection rather than at start: a start on local data never
// needs it, and loading it costs the start ~0.1 s (docs/startup.md).
import type pg from 'pg';

let lib: typeof pg | null = null;

export async function loadPg(): Promise<typeof pg> {
  lib ??= (await import('pg')).default;
  return lib;
}

/** For code that only runs on a connection made through `loadPg`. */
export function loadedPg(): typeof pg {
  if (!lib) throw new Error('node-postgres is used before a server connection loaded it.');
  return lib;
}
