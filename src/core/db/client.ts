import { AsyncLocalStorage } from 'node:async_hooks';
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { AppError } from '../../shared/errors';
import { SQLSTATE_DISK_FULL } from '../disk-full';
import { clusterFileProblem } from './cluster-files';
import { restoreAdvice } from './data-folder';
import { ALL_FEATURES, type DbFeatures } from './features';
import { Mutex } from './mutex';
import { pgliteWasmModule } from './pglite-wasm';
import { databaseWorker } from './warm-start';
import type { DbErrorShape, DbQueryResult, DbRequest, DbResponse } from './protocol';

/** Statements that cannot have written (a SELECT calling a writing function is the rare exception; the next write catches up). */
const READ_ONLY = /^\s*(SELECT|SHOW|EXPLAIN)\b/i;

/**
 * Free space below which a database whose backend ended on a full disk is not
 * reopened yet: recovery, and the first write after it, need room for a new
 * 16 MB log segment, and an attempt on a full disk only fails after rewriting
 * pg_control (docs/durability.md, "After a full disk").
 */
const REOPEN_MIN_FREE_BYTES = 48 << 20;

function stillFull(): AppError {
  return new AppError(
    'disk_full',
    'The disk holding Hearth’s data is full, so its database has paused: nothing can be read or saved until some space is free. ' +
      'Free some space; Hearth opens the database again by itself, and what was stored before is intact.',
  );
}

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void };
type DbRequestBody = DbRequest extends infer R ? (R extends DbRequest ? Omit<R, 'id'> : never) : never;

/** What a store needs to run SQL: the database itself or an open transaction. */
export interface Queryable {
  /** What the database can do; a transaction's handle carries its database's (absent: everything, as PGlite). */
  readonly features?: DbFeatures;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<DbQueryResult<T>>;
  exec(sql: string): Promise<void>;
}

export interface DbOptions {
  /** Commits wait for the disk (default false: the sync runs in the background). */
  durableCommits?: boolean;
}

/** A Postgres error, with SQLSTATE, kept out of user-facing text by dispatch. */
export class DbError extends Error {
  readonly sqlState?: string;
  readonly detail?: string;
  constructor(shape: DbErrorShape, readonly sql?: string) {
    super(shape.message);
    this.name = 'DbError';
    this.sqlState = shape.sqlState;
    this.detail = shape.detail;
  }
}

/**
 * The database as the core sees it: statements, transactions and what the
 * database can do. Two backends: PGlite in a worker on the user's disk
 * (PgliteDb, below) and a PostgreSQL server (ServerDb, ./server.ts;
 * docs/server-mode.md).
 */
export interface Db extends Queryable {
  /** Which backend: decides what the user is told about backups and durability. */
  readonly kind: 'pglite' | 'server';
  readonly features: DbFeatures;
  /** Runs fn in one transaction: committed if it resolves, rolled back if it throws. Statements inside join it. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The operations only an embedded database has (its files, its durability
   * switch, restarting its worker); null on a server, whose own backups and
   * durability settings apply.
   */
  readonly local: PgliteDb | null;
  /** Where the data is, for people: the server as user@host:port/database (never the password); null for PGlite. */
  readonly server: string | null;
  close(): Promise<void>;
}

/**
 * The core thread's handle on the database worker. Every statement goes
 * through one FIFO lock, so an open transaction owns the single connection
 * until it commits; statements issued inside `transaction()` (tracked with
 * AsyncLocalStorage) join it instead of waiting for it.
 */
export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  readonly server = null;
  get local(): PgliteDb {
    return this;
  }
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private lock = new Mutex();
  private inTx = new AsyncLocalStorage<true>();
  private closed = false;
  private exitError: Error | null = null;
  /** Set when Postgres' backend ended (a PANIC): the next call outside a transaction reopens the folder first. */
  private stopped: DbError | null = null;
  /** Statements run, and of them those that may have written (see writeCount). */
  private statements = 0;
  private writes = 0;

  private worker!: Worker;

  /** PGlite has every extension Hearth uses. */
  readonly features: DbFeatures = ALL_FEATURES;

  private durableCommits: boolean;

  private constructor(
    private readonly dataDir: string | null,
    options: DbOptions,
  ) {
    this.durableCommits = options.durableCommits ?? false;
  }

  private attach(worker: Worker): void {
    this.worker = worker;
    this.exitError = null;
    worker.on('message', (res: DbResponse) => {
      const p = this.pending.get(res.id);
      if (!p) return;
      this.pending.delete(res.id);
      if (res.ok) p.resolve(res.result);
      else {
        const error = new DbError(res.error);
        if (res.error.stopped && this.worker === worker) this.stopped ??= error;
        p.reject(error);
      }
    });
    const fail = (e: Error) => {
      if (this.worker !== worker) return;
      this.exitError = e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    worker.on('error', (e) => fail(e));
    worker.on('exit', (code) => {
      if (!this.closed) fail(new AppError('internal', `database worker stopped (exit code ${code})`));
    });
  }

  private async start(loadFrom?: Uint8Array): Promise<void> {
    const worker = databaseWorker();
    this.attach(worker);
    try {
      // The worker loads its code meanwhile; only the first database of the process waits for the compile.
      const wasmModule = await pgliteWasmModule();
      await this.send({
        op: 'open',
        dataDir: this.dataDir,
        durableCommits: this.durableCommits,
        ...(loadFrom ? { loadFrom } : {}),
        ...(wasmModule ? { wasmModule } : {}),
      });
    } catch (e) {
      await worker.terminate();
      throw e;
    }
    this.stopped = null;
  }

  /**
   * Opens the folder again in a fresh worker after Postgres' backend ended
   * (docs/durability.md, "After a full disk"): Postgres replays its log, so
   * every acknowledged commit is back. Called under the statement lock. While
   * the disk is still too full to recover on, answers disk_full and leaves the
   * old worker in place (it answers nothing but refusals), to try again on the
   * next call. The folder is checked first, as at start, and never created.
   */
  private async reopenAfterStop(): Promise<void> {
    const why = this.stopped;
    if (!why) return;
    const onFullDisk = why.sqlState === SQLSTATE_DISK_FULL;
    if (this.dataDir === null) throw why; // in memory: nothing to reopen from
    if (onFullDisk && this.freeBytes() < REOPEN_MIN_FREE_BYTES) throw stillFull();
    const problem = clusterFileProblem(this.dataDir);
    if (problem) throw new AppError('data_damaged', `Hearth's database stopped and cannot be reopened: ${problem}.${restoreAdvice(dirname(this.dataDir))}`);
    await this.send({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
    try {
      await this.start();
    } catch (e) {
      // The old worker is gone; this one refuses everything until the next try.
      this.exitError = onFullDisk && this.freeBytes() < REOPEN_MIN_FREE_BYTES ? stillFull() : (e as Error);
      throw this.exitError;
    }
    this.stopped = null;
    // Other files after recovery: the idle upkeep looks at them afresh.
    this.writes++;
  }

  private freeBytes(): number {
    const s = statfsSync(this.dataDir!);
    return s.bavail * s.bsize;
  }

  static async open(dataDir: string | null, loadFrom?: Uint8Array, options: DbOptions = {}): Promise<PgliteDb> {
    const db = new PgliteDb(dataDir, options);
    await db.start(loadFrom);
    return db;
  }

  /**
   * Closes the database and opens it again in a fresh worker, waiting for
   * statements already queued. WASM memory only grows: after a big index
   * build (hundreds of MB of maintenance_work_mem) this is the only way to
   * give it back. An in-memory database cannot be reopened and is left as is.
   */
  async restart(): Promise<void> {
    if (this.dataDir === null || this.inTx.getStore()) return;
    await this.lock.run(async () => {
      await this.send({ op: 'close' });
      await this.worker.terminate();
      await this.start();
    });
  }

  private send(body: DbRequestBody): Promise<unknown> {
    if (this.stopped && body.op !== 'close' && body.op !== 'open') return Promise.reject(this.stopped);
    if (this.exitError) return Promise.reject(this.exitError);
    if (this.closed) return Promise.reject(new AppError('internal', 'database is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...body } as DbRequest);
    });
  }

  /**
   * How long no statement has run or waited (ms); null while one does or a
   * transaction is open. The idle checkpoint (idle-checkpoint.ts) reads it.
   */
  idleForMs(): number | null {
    return this.closed ? null : this.lock.idleForMs();
  }

  /**
   * Statements that may have written since the database opened: anything but a
   * plain SELECT, SHOW or EXPLAIN. The idle checkpoint and vacuum look again only
   * when it has moved, so a Hearth left open does no upkeep looks of its own.
   */
  writeCount(): number {
    return this.writes;
  }

  /** Statements run since the database opened (for figures and tests). */
  statementCount(): number {
    return this.statements;
  }

  private count(sql: string): void {
    this.statements++;
    if (!READ_ONLY.test(sql)) this.writes++;
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return this.inTx.getStore()
      ? fn()
      : this.lock.run(async () => {
          await this.reopenAfterStop();
          return fn();
        });
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<DbQueryResult<T>> {
    return this.locked(async () => {
      this.count(sql);
      try {
        return (await this.send({ op: 'query', sql, params })) as DbQueryResult<T>;
      } catch (e) {
        if (e instanceof DbError) throw new DbError({ message: e.message, sqlState: e.sqlState, detail: e.detail }, sql);
        throw e;
      }
    });
  }

  /**
   * Runs a `COPY … FROM '/dev/blob'` statement reading `data` (PGlite's way to
   * feed COPY): many rows in one statement without a parameter each. Only the
   * embedded database has it; import's bulk path uses it (docs/export.md).
   */
  async copyFrom(sql: string, data: Uint8Array): Promise<DbQueryResult<Record<string, never>>> {
    return this.locked(async () => {
      this.count(sql);
      try {
        return (await this.send({ op: 'query', sql, params: [], blob: data })) as DbQueryResult<Record<string, never>>;
      } catch (e) {
        if (e instanceof DbError) throw new DbError({ message: e.message, sqlState: e.sqlState, detail: e.detail }, sql);
        throw e;
      }
    });
  }

  async exec(sql: string): Promise<void> {
    await this.locked(() => {
      this.count(sql);
      return this.send({ op: 'exec', sql });
    });
  }

  /** Runs fn in one transaction: committed if it resolves, rolled back if it throws. */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.inTx.getStore()) return fn(this);
    return this.lock.run(() =>
      this.inTx.run(true, async () => {
        await this.reopenAfterStop();
        await this.send({ op: 'exec', sql: 'BEGIN' });
        try {
          const out = await fn(this);
          await this.send({ op: 'exec', sql: 'COMMIT' });
          return out;
        } catch (e) {
          await this.send({ op: 'exec', sql: 'ROLLBACK' }).catch(() => undefined);
          throw e;
        }
      }),
    );
  }

  /**
   * Whether a commit waits for its write-ahead log to be on disk
   * (docs/durability.md). Takes effect from the next commit.
   */
  async setDurableCommits(on: boolean): Promise<void> {
    this.durableCommits = on;
    await this.locked(() => this.send({ op: 'durability', durableCommits: on }));
  }

  /** How many syncs Postgres asked for, and how many blocked (for bench figures); null in memory. */
  async syncCounts(): Promise<{ requested: number; blocking: number; background: number } | null> {
    return this.locked(() => this.send({ op: 'syncCounts' })) as Promise<{ requested: number; blocking: number; background: number } | null>;
  }

  /**
   * A tarball of the whole data directory (PGlite's dumpDataDir). It holds the
   * statement lock while it reads the files, so it is a consistent snapshot:
   * no statement runs in between — and none can for as long as it takes.
   * Backups do not use it (src/core/backups/online-copy.ts copies the files
   * while statements go on); test templates do.
   */
  async dump(compression: 'gzip' | 'none' = 'gzip'): Promise<Uint8Array> {
    return this.locked(() => this.send({ op: 'dump', compression })) as Promise<Uint8Array>;
  }

  /**
   * Closes the database, runs `swap` (which replaces the files on disk), and
   * opens it again in a fresh worker; statements queued meanwhile wait and
   * then run against the new files. If reopening fails the error is thrown and
   * the handle stays unusable (the caller decides how to recover).
   */
  async replaceFiles(swap: () => Promise<void>): Promise<void> {
    if (this.dataDir === null) throw new AppError('internal', 'an in-memory database has no files to replace');
    await this.lock.run(async () => {
      await this.send({ op: 'close' });
      await this.worker.terminate();
      try {
        await swap();
      } catch (e) {
        await this.start(); // the old files are still in place
        throw e;
      }
      try {
        await this.start();
      } catch (e) {
        this.exitError = e as Error;
        throw e;
      }
      // Other files: the idle upkeep looks at them afresh.
      this.writes++;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.lock.run(() => this.send({ op: 'close' }));
    } finally {
      this.closed = true;
      await this.worker.terminate();
    }
  }
}
