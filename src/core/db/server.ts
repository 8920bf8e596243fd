// The PostgreSQL-server backend (docs/server-mode.md): the same Db contract
// as PGlite, over node-postgres with a small pool. Statements outside a
// transaction take any pooled connection; a transaction checks one out and
// every statement issued inside it (tracked with AsyncLocalStorage, as in
// PgliteDb) runs on that connection.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { loadedPg, loadPg } from './pg-lib';
import { AppError } from '../../shared/errors';
import type { Db, Queryable } from './client';
import { DbError } from './client';
import type { DbFeatures } from './features';
import type { DbQueryResult } from './protocol';
import { connectionConfig, describeServer, parseDatabaseUrl, type ServerAddress, type UrlSource } from './server-url';

// Result types as PGlite gives them, so a row reads the same on both backends
// (node-postgres' defaults differ: int8 as a string, date as a local-time Date…).
const INT8 = 20;
const INT8_ARRAY = 1016;
const DATE = 1082;
const INTERVAL = 1186;
const BYTEA = 17;

function typeParser(oid: number, format?: string): (value: string) => unknown {
  if (format === 'binary') return loadedPg().types.getTypeParser(oid, 'binary') as (v: string) => unknown;
  switch (oid) {
    case INT8:
      return (v) => Number(v);
    case INT8_ARRAY: {
      const parseArray = loadedPg().types.getTypeParser(INT8_ARRAY as never) as (v: string) => (string | null)[];
      return (v) => parseArray(v).map((x) => (x === null ? null : Number(x)));
    }
    case DATE:
    case INTERVAL:
      return (v) => v;
    case BYTEA: {
      const parseBytea = loadedPg().types.getTypeParser(BYTEA) as (v: string) => Buffer;
      // A plain Uint8Array, as PGlite returns: a Buffer would serialise differently.
      return (v) => new Uint8Array(parseBytea(v));
    }
    default:
      return loadedPg().types.getTypeParser(oid) as (v: string) => unknown;
  }
}

interface PgErrorLike {
  message?: string;
  code?: string;
  detail?: string;
  hint?: string;
}

function toDbError(e: unknown, sql?: string): unknown {
  const err = e as PgErrorLike;
  // A SQLSTATE is five characters; Node's own errors (ECONNRESET…) are not database errors.
  if (err && typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) {
    return new DbError(
      { message: err.message ?? String(e), sqlState: err.code, ...(err.detail ? { detail: err.detail } : {}), ...(err.hint ? { hint: err.hint } : {}) },
      sql,
    );
  }
  return e;
}

/** Why the server could not be used, in the person's words, without the password. */
export function connectionError(e: unknown, at: ServerAddress): AppError {
  const err = e as { code?: string; message?: string };
  const where = describeServer(at);
  const because = (() => {
    switch (err?.code) {
      case 'ECONNREFUSED':
        return 'the connection was refused (is the server running, and listening on that host and port?)';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `the host name "${at.host}" was not found`;
      case 'ETIMEDOUT':
        return 'the connection timed out';
      case '28P01':
      case '28000':
        return `the server refused the login of user "${at.user}" (wrong password, or not allowed from here)`;
      case '3D000':
        return `the database "${at.database}" does not exist on that server (create it first)`;
      case '42501':
        return `user "${at.user}" lacks a privilege Hearth needs: ${err.message ?? ''}`.trim();
      default:
        // Messages from pg and the server name the problem; the URL (and so the password) is never in them.
        return err?.message ? `${err.message}${err.code ? ` (${err.code})` : ''}` : String(e);
    }
  })();
  return new AppError('database_server', `Hearth could not use the PostgreSQL server ${where}: ${because}.`);
}

export interface ServerDbOptions {
  /** Connections in the pool (default 4, or the URL's `pool_max`). */
  poolMax?: number;
  /** Where the URL came from: what it may name on this computer (server-url.ts). Default `settings`, the strict one. */
  source?: UrlSource;
}

export class ServerDb implements Db {
  readonly kind = 'server' as const;
  readonly local = null;
  get server(): string {
    return describeServer(this.address);
  }
  private inTx = new AsyncLocalStorage<pg.PoolClient>();
  /** What waits for a transaction's commit (afterCommit), by its connection. */
  private onCommit = new WeakMap<pg.PoolClient, (() => void)[]>();
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly clientConfig: pg.ClientConfig,
    readonly address: ServerAddress,
    public features: DbFeatures,
  ) {}

  /**
   * Connects, and reads what the server can do. Throws an AppError
   * ('database_server') naming the server and the reason, never the password.
   */
  static async open(url: string, options: ServerDbOptions = {}): Promise<ServerDb> {
    const parsed = parseDatabaseUrl(url, options.source);
    const { address, poolMax } = parsed;
    const config = await connectionConfig(parsed);
    const clientConfig: pg.ClientConfig = { ...config, connectionTimeoutMillis: 15_000, types: { getTypeParser: typeParser as never } };
    const pool = new (await loadPg()).Pool({ ...clientConfig, max: options.poolMax ?? poolMax ?? 4, idleTimeoutMillis: 30_000 });
    // An idle connection the server dropped (restart, network): the pool replaces it; the next statement reconnects.
    pool.on('error', (e) => console.warn(`Hearth: a connection to ${describeServer(address)} was lost: ${e.message}`));
    let features: DbFeatures;
    try {
      features = await readFeatures(pool);
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw connectionError(e, address);
    }
    return new ServerDb(pool, clientConfig, address, features);
  }

  /**
   * Reads the features again once the schema is in place: vectors need
   * pgvector and a schema made with it, BM25 pg_textsearch and its indexes. A database migrated text-only keeps
   * bytea embedding columns even if pgvector is installed later
   * (docs/server-mode.md), so it stays text-only rather than failing on `<=>`.
   */
  async refreshFeatures(): Promise<DbFeatures> {
    const installed = await readFeatures(this);
    const { rows } = await this.query<{ type: string | null; bm25: boolean }>(
      `SELECT (SELECT format_type(atttypid, atttypmod) FROM pg_attribute
               WHERE attrelid = to_regclass('memories') AND attname = 'embedding' AND NOT attisdropped) AS type,
              to_regclass('memories_bm25_idx') IS NOT NULL AS bm25`,
    );
    const vectorSchema = rows[0]?.type?.startsWith('vector') ?? false;
    // Likewise BM25 needs the bm25 indexes the migrations made only where pg_textsearch was.
    this.features = Object.freeze({ vector: installed.vector && vectorSchema, bm25: installed.bm25 && rows[0]!.bm25 });
    return this.features;
  }

  private runner(): pg.Pool | pg.PoolClient {
    if (this.closed) throw new AppError('internal', 'database is closed');
    return this.inTx.getStore() ?? this.pool;
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<DbQueryResult<T>> {
    const t = performance.now();
    try {
      const r = await this.runner().query(sql, params);
      return { rows: r.rows as T[], affectedRows: r.rowCount ?? 0, ms: performance.now() - t };
    } catch (e) {
      throw toDbError(e, sql);
    }
  }

  async exec(sql: string): Promise<void> {
    try {
      // No parameters: the simple protocol, which runs several statements like PGlite's exec.
      await this.runner().query(sql);
    } catch (e) {
      throw toDbError(e, sql);
    }
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.inTx.getStore()) return fn(this);
    if (this.closed) throw new AppError('internal', 'database is closed');
    const client = await this.pool.connect().catch((e: unknown) => {
      throw connectionError(e, this.address);
    });
    let broken = false;
    // While checked out, a connection the server ends (a restart, an administrator) reports it as an
    // 'error' event the pool no longer listens for: unheard, it would stop the whole process. The
    // statement under way fails on its own; the connection is closed, not reused.
    const lost = (e: Error) => {
      broken = true;
      console.warn(`Hearth: a connection to ${describeServer(this.address)} was lost mid-transaction: ${e.message}`);
    };
    client.on('error', lost);
    try {
      return await this.inTx.run(client, async () => {
        await client.query('BEGIN');
        try {
          const out = await fn(this);
          await client.query('COMMIT');
          const after = this.onCommit.get(client) ?? [];
          this.onCommit.delete(client);
          for (const f of after) f();
          return out;
        } catch (e) {
          this.onCommit.delete(client);
          await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
          throw toDbError(e);
        }
      });
    } finally {
      client.removeListener('error', lost);
      // A connection that could not roll back is closed, never handed to the next statement mid-transaction.
      client.release(broken);
    }
  }

  /**
   * Runs `fn` once the transaction the caller is in commits (dropped if it rolls back), or now
   * outside one: other Hearths hear only of changes they can read (docs/server-mode.md, "Live updates").
   */
  afterCommit(fn: () => void): void {
    const client = this.inTx.getStore();
    if (!client) return fn();
    const list = this.onCommit.get(client) ?? [];
    list.push(fn);
    this.onCommit.set(client, list);
  }

  /**
   * Sends notifications on a channel, in order, in one statement. Always on the pool, never on a
   * transaction's connection: a caller inside a transaction (tracked by AsyncLocalStorage, which
   * follows timers too) must not have its notices wait for, or vanish with, that transaction.
   */
  async notify(channel: string, payloads: string[]): Promise<void> {
    if (this.closed || !payloads.length) return;
    try {
      await this.pool.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n', [channel, payloads]);
    } catch (e) {
      throw toDbError(e);
    }
  }

  /**
   * A connection of its own, outside the pool, for LISTEN: a pooled connection is handed to other
   * statements and closed when idle, and either would silently end the listening.
   */
  async connectDedicated(applicationName: string): Promise<pg.Client> {
    if (this.closed) throw new AppError('internal', 'database is closed');
    // Named, so the server's administrator sees what the connection is (pg_stat_activity); kept alive, so a
    // connection the network dropped is noticed rather than listening to nothing.
    const client = new (loadedPg().Client)({ ...this.clientConfig, application_name: applicationName, keepAlive: true });
    try {
      await client.connect();
    } catch (e) {
      await client.end().catch(() => undefined);
      throw connectionError(e, this.address);
    }
    return client;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

/** pgvector installed or installable; pg_textsearch's bm25 likewise. */
async function readFeatures(q: { query(sql: string): Promise<{ rows: unknown[] }> }): Promise<DbFeatures> {
  const { rows } = await q.query(
    `SELECT name FROM pg_available_extensions WHERE name IN ('vector', 'pg_textsearch')
     UNION SELECT extname FROM pg_extension WHERE extname IN ('vector', 'pg_textsearch')`,
  );
  const names = new Set((rows as { name: string }[]).map((r) => r.name));
  return Object.freeze({ vector: names.has('vector'), bm25: names.has('pg_textsearch') });
}
