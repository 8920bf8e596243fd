// Imported first by the database worker (worker.ts), the only thread PGlite runs on.
//
// PGlite's filesystem layer (Emscripten's NODEFS) creates each file and then
// chmods it to the mode it holds in its own virtual filesystem, 0666: that
// explicit chmod bypasses the process umask, and left the WAL and every table
// file readable and writable by any local user. Here the worker's own `fs`
// (each worker thread has its own module instances) keeps group and other
// bits out of every mode PGlite sets. See docs/data-safety.md.
import fs from 'node:fs';

const OWNER_ONLY = ~0o077;

const chmodSync = fs.chmodSync;
const fchmodSync = fs.fchmodSync;
const lchmodSync = fs.lchmodSync as typeof fs.chmodSync | undefined;
fs.chmodSync = (path, mode) => chmodSync(path, toOwnerOnly(mode));
fs.fchmodSync = (fd, mode) => fchmodSync(fd, toOwnerOnly(mode));
if (lchmodSync) fs.lchmodSync = (path, mode) => lchmodSync(path, toOwnerOnly(mode));

function toOwnerOnly(mode: fs.Mode): fs.Mode {
  return typeof mode === 'number' ? mode & OWNER_ONLY : parseInt(mode, 8) & OWNER_ONLY;
}
