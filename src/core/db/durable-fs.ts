// Makes PGlite's writes reach the disk (docs/durability.md). PGlite runs
// Postgres on Emscripten's NODEFS, whose file streams have no fsync at all:
// every fsync Postgres asks for returns success and syncs nothing. This layer
// gives those streams a real one, and decides when a commit waits for it.
import * as fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** The parts of an Emscripten NODEFS stream this layer uses. */
export interface NodeFsStream {
  nfd?: number;
  node: unknown;
}

type StreamOps = {
  open(stream: NodeFsStream): void;
  close(stream: NodeFsStream): void;
  write(stream: NodeFsStream, buffer: Uint8Array, offset: number, length: number, position?: number): number;
  fsync?(stream: NodeFsStream): number | undefined;
};

interface EmscriptenFs {
  filesystems: { NODEFS: { stream_ops: StreamOps; realPath(node: unknown): string } };
  ErrnoError: new (errno: number) => Error;
}

/**
 * How bytes reach the disk. Production uses the real calls; the power-loss
 * test (db/testing/crash-io.ts) passes one that records writes and syncs and
 * can throw away what was not synced, as an OS crash would.
 */
export interface FileIo {
  /**
   * Called before Postgres writes length bytes at position of the file at path;
   * false: the bytes never reach the file (a simulated power cut), though Postgres is told they did.
   */
  beforeWrite(path: string, fd: number, position: number, length: number): boolean;
  /** Blocks until the file's data is on disk. */
  sync(path: string, fd: number): void;
  /** Starts a sync in the background (the thread pool) and returns at once. */
  syncSoon(path: string, fd: number): void;
}

export const nodeFileIo: FileIo = {
  beforeWrite: () => true,
  sync(_path, fd) {
    fs.fsyncSync(fd);
  },
  syncSoon(_path, fd) {
    // An error here is also seen by the next blocking sync of this file (the
    // barrier or the close), which does throw; nothing to do with it now.
    fs.fsync(fd, () => undefined);
  },
};

export interface DurabilityOptions {
  /** true: a commit returns once its WAL is on disk. false: the WAL sync starts at commit and runs in the background. */
  durableCommits: boolean;
  io?: FileIo;
}

/**
 * Postgres' own start parameters, with fsync on. PGlite's defaults pass -F
 * (fsync off); and wal_sync_method must be fsync, because Emscripten's
 * fdatasync is an empty function that never reaches the file stream.
 */
export function durableStartParams(): string[] {
  const params = PGlite.defaultStartParams.filter((p: string) => p !== '-F');
  return [...params, '-c', 'fsync=on', '-c', 'wal_sync_method=fsync', '-c', 'synchronous_commit=on', '-c', 'full_page_writes=on'];
}

const WAL_FILE = /[\\/]pg_wal[\\/]/;
/** WASI's EIO: what Postgres sees when a sync fails (it then stops rather than risk a lost write). */
const EIO = 29;

/**
 * NodeFS with a real fsync. Write-ahead log files (pg_wal/) are the only
 * ones synced at every commit; with durableCommits off that sync is handed to
 * the thread pool so the commit does not wait, and a blocking sync of every
 * such file still runs before any other file is written or synced (the data
 * page a WAL record describes never reaches the disk before the record) and
 * before the file is closed.
 */
export class DurableNodeFS extends NodeFS {
  private durableCommits: boolean;
  private readonly io: FileIo;
  /** WAL files whose background sync may still be running, by descriptor. */
  private readonly walInFlight = new Map<number, string>();
  private readonly paths = new WeakMap<NodeFsStream, { path: string; wal: boolean }>();
  /** Syncs Postgres asked for, and how many were real blocking ones (bench figures). */
  readonly counts = { requested: 0, blocking: 0, background: 0 };

  constructor(dataDir: string, options: DurabilityOptions) {
    super(dataDir);
    this.durableCommits = options.durableCommits;
    this.io = options.io ?? nodeFileIo;
  }

  setDurableCommits(on: boolean): void {
    this.durableCommits = on;
    if (on) this.flushWal();
  }

  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]): ReturnType<NodeFS['init']> {
    const out = await super.init(pg, opts);
    const preRun = out.emscriptenOpts.preRun ?? [];
    // After NodeFS's own preRun has mounted the data directory.
    out.emscriptenOpts.preRun = [...preRun, (mod: unknown) => this.patch((mod as { FS: EmscriptenFs }).FS)];
    return out;
  }

  /** Blocks until every WAL file with a background sync is on disk. */
  flushWal(): void {
    for (const [fd, path] of this.walInFlight) {
      this.counts.blocking++;
      this.io.sync(path, fd);
    }
    this.walInFlight.clear();
  }

  private patch(FS: EmscriptenFs): void {
    const nodefs = FS.filesystems.NODEFS;
    const ops = nodefs.stream_ops;
    const original = { open: ops.open, close: ops.close, write: ops.write };
    ops.open = (stream) => {
      original.open(stream);
      const path = nodefs.realPath(stream.node);
      this.paths.set(stream, { path, wal: WAL_FILE.test(path) });
    };
    ops.write = (stream, buffer, offset, length, position) => {
      const file = this.paths.get(stream);
      if (file && stream.nfd !== undefined) {
        let write: boolean;
        try {
          if (!file.wal) this.flushWal();
          write = this.io.beforeWrite(file.path, stream.nfd, position ?? -1, length);
        } catch {
          throw new FS.ErrnoError(EIO);
        }
        if (!write) return length;
      }
      return original.write(stream, buffer, offset, length, position);
    };
    ops.fsync = (stream) => {
      const file = this.paths.get(stream);
      if (!file || stream.nfd === undefined) return 0;
      this.counts.requested++;
      if (file.wal && !this.durableCommits) {
        this.counts.background++;
        this.walInFlight.set(stream.nfd, file.path);
        this.io.syncSoon(file.path, stream.nfd);
        return 0;
      }
      try {
        if (!file.wal) this.flushWal();
        this.counts.blocking++;
        this.walInFlight.delete(stream.nfd);
        this.io.sync(file.path, stream.nfd);
        return 0;
      } catch {
        return EIO;
      }
    };
    ops.close = (stream) => {
      const fd = stream.nfd;
      if (fd !== undefined && this.walInFlight.has(fd)) {
        const path = this.walInFlight.get(fd)!;
        this.walInFlight.delete(fd);
        this.counts.blocking++;
        try {
          this.io.sync(path, fd);
        } catch {
          throw new FS.ErrnoError(EIO);
        }
      }
      original.close(stream);
    };
  }
}
