// A backup archive on disk: a gzip tarball of a pgdata folder, written and
// read as streams (a 50k-memory database never has to fit in memory), with
// `tar` (node-tar: the well-kept implementation npm itself uses; it refuses
// paths that climb out of the target folder). Compression and decompression
// are Node's own zlib streams, which run on the thread pool: node-tar's
// built-in gzip works on the calling thread, where the core answers every
// other call (docs/data-safety.md, "How a backup is taken").
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { syncDir } from './files';

/** node-tar, loaded by the first backup or restore rather than at start (docs/startup.md). */
const loadTar = () => import('tar');

/** Writes `fromDir`'s contents as `file` (paths relative to it, as README's "Restoring by hand" expects): a temporary, synced, renamed. */
export async function writeArchive(fromDir: string, file: string): Promise<void> {
  const tmp = `${file}.partial`;
  try {
    const { create } = await loadTar();
    const tarball = create({ cwd: fromDir, portable: true }, await readdir(fromDir));
    await pipeline(Readable.from(tarball), createGzip(), createWriteStream(tmp, { mode: 0o600 }));
    const fh = await open(tmp, 'r+');
    try {
      await fh.chmod(0o600);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  syncDir(dirname(file));
}

/**
 * Unpacks an archive into `intoDir` (created, private). Archives from before
 * this format (PGlite's own tarballs) name their files from a leading `/`,
 * which tar strips, so both kinds unpack the same way.
 */
export async function extractArchive(file: string, intoDir: string): Promise<void> {
  await mkdir(intoDir, { recursive: true, mode: 0o700 });
  const problems: string[] = [];
  const { extract } = await loadTar();
  const unpack = extract({
    cwd: intoDir,
    umask: 0o077,
    // The leading '/' of the older format is expected (TAR_ENTRY_INFO); anything else means a damaged archive.
    onwarn: (code: string, message: string) => {
      if (code !== 'TAR_ENTRY_INFO') problems.push(`${code}: ${message}`);
    },
  });
  await pipeline(createReadStream(file), createGunzip(), unpack);
  if (problems.length) throw new Error(`the archive does not unpack whole (${problems.slice(0, 3).join('; ')})`);
}

/** sha256 and size of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).byteLength;
  }
  return { sha256: hash.digest('hex'), bytes };
}
