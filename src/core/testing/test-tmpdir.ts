// Where the tests' temp folders go (read by vitest.config.ts and playwright.config.ts).
// A run copies, writes and deletes hundreds of 40 MB data folders; on this machine's disk
// (ext4 mounted with `discard`) deleting one took 1–2.5 s and copying the template 1.4–8 s
// under load, on tmpfs 0.1–0.2 s and 0.5–0.7 s (docs/testing.md, "Where test time goes").
// Only tests see this: the app keeps its data folder wherever the person chose.
import { accessSync, constants, mkdirSync, statfsSync } from 'node:fs';

/** Free space /dev/shm must have to be used (two unit files and two e2e hosts hold ~40–300 MB each). */
const MIN_FREE_BYTES = 4 * 1024 ** 3;

/**
 * HEARTH_TEST_TMPDIR if set; else a private folder in /dev/shm when that is writable with 4 GB free;
 * else undefined (the usual temp folder). Creates the folder (0700).
 */
export function testTmpDir(): string | undefined {
  const chosen = process.env.HEARTH_TEST_TMPDIR;
  if (chosen) return chosen;
  try {
    accessSync('/dev/shm', constants.W_OK);
    // A container's /dev/shm is often 64 MB: a run needs a few GB there at its peak, or it fills up mid-run.
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < MIN_FREE_BYTES) return undefined;
  } catch {
    return undefined;
  }
  const dir = `/dev/shm/hearth-tests-${process.getuid?.() ?? 'user'}`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
