// A real, small disk for the full-disk tests: a tmpfs mounted in a temporary
// folder (needs root, as on the CI machine), and a way to fill it.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  /** The mounted folder. */
  readonly dir: string;
  /** Writes `file` until only `leave` bytes are free (0: to the last byte the disk gives). */
  fill(file: string, leave?: number): void;
  /** Unmounts (lazily: a process still holding a file cannot keep the mount) and removes the folder. */
  remove(): void;
}

export function mountSmallDisk(sizeMb = 160): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir]);
  return {
    dir,
    fill(file, leave = 0) {
      const chunk = Buffer.alloc(1 << 20);
      const fd = openSync(file, 'w');
      try {
        for (let s = statfsSync(dir); s.bavail * s.bsize > leave; s = statfsSync(dir)) {
          writeSync(fd, chunk, 0, Math.min(chunk.length, s.bavail * s.bsize - leave));
        }
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
    },
    remove() {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
