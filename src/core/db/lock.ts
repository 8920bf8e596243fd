import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';

export interface DirLock {
  path: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite takes no lock on its directory, and two owners silently lose writes.
 * This lock file names the owning process; a lock left by a process that no
 * longer runs (a crash, a kill) is taken over.
 */
export function acquireDirLock(dataDir: string): DirLock {
  const path = join(dataDir, 'hearth.lock');
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          try {
            unlinkSync(path);
          } catch {
            // already gone: nothing to release
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let owner: { pid?: number } = {};
      try {
        owner = JSON.parse(readFileSync(path, 'utf8')) as { pid?: number };
      } catch {
        // half-written or garbage: treat as stale
      }
      if (typeof owner.pid === 'number' && owner.pid !== process.pid && alive(owner.pid)) {
        throw new AppError(
          'locked',
          `The data directory ${dataDir} is already in use by another Hearth (process ${owner.pid}). Close it first, or choose another data directory.`,
        );
      }
      if (owner.pid === process.pid) {
        throw new AppError('locked', `The data directory ${dataDir} is already open in this process.`);
      }
      try {
        unlinkSync(path);
      } catch {
        // someone else took it over first; retry
      }
    }
  }
  throw new AppError('locked', `Could not lock the data directory ${dataDir}.`);
}
