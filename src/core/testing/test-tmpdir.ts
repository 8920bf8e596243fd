// Where the tests' temp folders go (read by vitest.config.ts and playwright.config.ts).
// A run copies, writes and deletes hundreds of 40 MB data folders; on this machine's disk
// (ext4 mounted with `discard`) deleting one took 1–2.5 s and copying the template 1.4–8 s
// under load, on tmpfs 0.1–0.2 s and 0.5–0.7 s (docs/testing.md, "Where test time goes").
// Only tests see this: the app keeps its data folder wherever the person chose.
import { accessSync, constants, mkdirSync } from 'node:fs';

/**
 * HEARTH_TEST_TMPDIR if set; else a private folder in /dev/shm when that is writable;
 * else undefined (the usual temp folder). Creates the folder (0700).
 */
export function testTmpDir(): string | undefined {
  const chosen = process.env.HEARTH_TEST_TMPDIR;
  if (chosen) return chosen;
  try {
    accessSync('/dev/shm', constants.W_OK);
  } catch {
    return undefined;
  }
  const dir = `/dev/shm/hearth-tests-${process.getuid?.() ?? 'user'}`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
