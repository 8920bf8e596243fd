// The PostgreSQL-server backend. Connection failures need no server (a
// closed port refuses); the rest runs against the server the test run names
// (HEARTH_TEST_DATABASE_URL, src/core/testing/server.ts) and says why it
// skips without one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { type CoreOptions, createCore } from '../index';
import { makeTestCore, type TestCore } from '../testing/core';
import { emptyTestDatabase, noServerReason, testBackend, type TestDatabase } from '../testing/server';
import { DbError } from './client';
import { findMigrationsDir, readMigrations } from './migrate';
import { ServerDb } from './server';
import { claimJobs } from '../jobs/store';
import { decodeVector, encodeVector } from './vector';
import { closedPort } from '../testing/ports';

const skipReason = noServerReason();
if (skipReason) console.log(`server.test.ts: server tests skip: ${skipReason}`);

async function openError(url: string): Promise<AppError> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-test-'));
  try {
    await createCore({ dataDir: dir, databaseUrl: url, dailyBackups: false });
  } catch (e) {
    return e as AppError;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error('opened');
}

describe('opening a server that cannot be used', () => {
  it('a refused connection says which server and why, and never shows the password', async () => {
    const port = await closedPort();
    const e = await openError(`postgres://hearth:s3cret-pw@127.0.0.1:${port}/hearth`);
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe('database_server');
    expect(e.message).toContain(`hearth@127.0.0.1:${port}/hearth`);
    expect(e.message).toContain('refused');
    expect(e.message).not.toContain('s3cret-pw');
    expect(e.stack ?? '').not.toContain('s3cret-pw');
  });

  it('a URL that is not a PostgreSQL URL is refused without repeating it', async () => {
    const e = await openError('mysql://root:s3cret-pw@db/x');
    expect(e.code).toBe('database_server');
    expect(e.message).toContain('postgres://');
    expect(e.message).not.toContain('s3cret-pw');
    const garbled = await openError('not a url s3cret-pw');
    expect(garbled.code).toBe('database_server');
    expect(garbled.message).not.toContain('s3cret-pw');
  });

  it.skipIf(testBackend() !== 'server')('a database that does not exist is named (needs a real PostgreSQL server)', async () => {
    const url = new URL(process.env.HEARTH_TEST_DATABASE_URL!);
    url.pathname = '/hearth_no_such_database';
    const e = await openError(url.toString());
    expect(e.code).toBe('database_server');
    expect(e.message).toContain('"hearth_no_such_database" does not exist');
  });
});

describe.skipIf(skipReason !== null)('the server backend', () => {
  let core: TestCore | null = null;
  afterEach(async () => {
    await core?.dispose();
    core = null;
  });

  it('runs statements on the pool and a transaction on one connection that its statements join', async () => {
    core = await makeTestCore();
    const db = core.ctx.db;
    expect(db.kind).toBe('server');
    expect(db.local).toBeNull();
    await core.call('memories.write', { persona: 'main', content: 'first' });
    // A failing transaction leaves nothing behind, even statements issued through the Db itself.
    await expect(
      db.transaction(async () => {
        await db.query(`INSERT INTO memories (persona, content) VALUES ('main', 'rolled back')`);
        await db.query('SELECT 1/0');
      }),
    ).rejects.toMatchObject({ sqlState: '22012' });
    const { rows } = await db.query<{ content: string }>(`SELECT content FROM memories WHERE persona = 'main' ORDER BY content`);
    expect(rows.map((r) => r.content)).toEqual(['first']);
    // Inside a transaction, a statement sees the transaction's own uncommitted rows.
    const seen = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO memories (persona, content) VALUES ('main', 'inside')`);
      return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE persona = 'main'`)).rows[0]!.n;
    });
    expect(seen).toBe(2);
  });

  it('keeps SQLSTATE on errors and reads types as PGlite does', async () => {
    core = await makeTestCore();
    const db = core.ctx.db;
    const err = await db.query(`INSERT INTO personas (id, name) VALUES ('main', 'again')`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DbError);
    expect((err as DbError).sqlState).toBe('23505');
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT 9007199254740991::int8 AS big, '2026-03-01'::date AS day, '\\x0102'::bytea AS bytes, ARRAY[1,2]::int8[] AS ids, '{"a":1}'::jsonb AS doc`,
    );
    expect(rows[0]).toEqual({ big: 9007199254740991, day: '2026-03-01', bytes: new Uint8Array([1, 2]), ids: [1, 2], doc: { a: 1 } });
    expect(Object.getPrototypeOf(rows[0]!.bytes)).toBe(Uint8Array.prototype);
  });

  it('fills features from the server; with pgvector, vectors go in and out in binary', async () => {
    core = await makeTestCore();
    const db = core.ctx.db as ServerDb;
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'vector'`);
    expect(db.features.vector).toBe(rows[0]!.n === 1);
    if (!db.features.vector) return; // text-only server: covered by the text-only tests
    await db.query(`INSERT INTO memories (persona, content, embedding) VALUES ('main', 'v', $1)`, [encodeVector([0.5, -1, 2])]);
    const back = await db.query<{ v: Uint8Array }>(`SELECT vector_send(embedding) AS v FROM memories WHERE content = 'v'`);
    expect(Array.from(decodeVector(back.rows[0]!.v).slice(0, 4))).toEqual([0.5, -1, 2, 0]);
  });
});

// pglite-socket serves one session to every connection (testing/server.ts): two Hearths need a real server.
describe.skipIf(testBackend() !== 'server')('two Hearths on one server (needs a real PostgreSQL server)', () => {
  let empty: TestDatabase | null = null;
  const dirs: string[] = [];
  beforeEach(async () => {
    empty = await emptyTestDatabase();
  });
  afterEach(async () => {
    await empty?.drop();
    empty = null;
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  /** A Hearth on the test's one empty database, with its own data folder. */
  const open = (options: Partial<CoreOptions> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-test-'));
    dirs.push(dir);
    return createCore({ dataDir: dir, databaseUrl: empty!.url, dailyBackups: false, ...options });
  };

  it('two Hearths migrating one empty database at once apply each migration once', async () => {
    const cores = await Promise.all([open(), open()]);
    try {
      const { rows } = await cores[0].ctx.db.query<{ name: string; n: number }>(
        'SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name ORDER BY name',
      );
      expect(rows.map((r) => r.name)).toEqual(readMigrations(findMigrationsDir()).map((f) => f.name));
      expect(rows.every((r) => r.n === 1)).toBe(true);
      // Both work on the one database: what one writes, the other reads.
      await cores[0].call('memories.write', { persona: 'main', content: 'written by the first' });
      const list = await cores[1].call('memories.list', { persona: 'main' });
      expect(list.items.map((m) => m.content)).toContain('written by the first');
    } finally {
      await Promise.all(cores.map((c) => c.close()));
    }
  });

  it('never hands one job to both, however their claims interleave', async () => {
    // No queue served: the test itself claims, as each Hearth's runner would.
    const cores = await Promise.all([open({ queues: {} }), open({ queues: {} })]);
    try {
      const JOBS = 400;
      await cores[0].ctx.db.query(
        `INSERT INTO jobs (queue, persona, args) SELECT 'embeddings', 'main', '{}'::jsonb FROM generate_series(1, $1)`,
        [JOBS],
      );
      // Each Hearth claims as its runner does, several claims in flight at once on its pool.
      const claimAll = async (core: TestCore | Awaited<ReturnType<typeof createCore>>) => {
        const got: string[] = [];
        const worker = async () => {
          for (;;) {
            const rows = await claimJobs(core.ctx.db, 'embeddings', 3);
            if (!rows.length) return;
            got.push(...rows.map((r) => String(r.id)));
          }
        };
        await Promise.all([worker(), worker(), worker()]);
        return got;
      };
      const [a, b] = await Promise.all(cores.map(claimAll));
      const all = [...a!, ...b!];
      expect(new Set(all).size).toBe(JOBS);
      expect(all.length).toBe(JOBS);
      // Both took part: the claims really raced.
      expect(a!.length).toBeGreaterThan(0);
      expect(b!.length).toBeGreaterThan(0);
    } finally {
      await Promise.all(cores.map((c) => c.close()));
    }
  });

  it('a Hearth that starts leaves alone the job another one is running, and takes back one whose Hearth stopped', async () => {
    const first = await open({ queues: {} });
    const held = async () => {
      const { rows } = await first.ctx.db.query<{ state: string; crashes: number }>(`SELECT state, crashes FROM jobs ORDER BY id`);
      return rows;
    };
    try {
      await first.ctx.db.query(`INSERT INTO jobs (queue, persona, args) VALUES ('embeddings', 'main', '{}'), ('embeddings', 'main', '{}')`);
      // The first Hearth runs one job (renewing a minute's lease), and one it claimed for 200 ms and then stopped.
      expect(await claimJobs(first.ctx.db, 'embeddings', 1, 60_000)).toHaveLength(1);
      expect(await claimJobs(first.ctx.db, 'embeddings', 1, 200)).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 400));
      const second = await open({ queues: {} });
      try {
        expect(await held()).toEqual([
          { state: 'running', crashes: 0 },
          { state: 'available', crashes: 1 },
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});

describe.skipIf(testBackend() !== 'server')('a connection the server ends (needs a real PostgreSQL server)', () => {
  it('fails the transaction under way, keeps the process running, and the next call works', async () => {
    const core = await makeTestCore();
    try {
      const db = core.ctx.db;
      let pid: number | null = null;
      const ended = db.transaction(async (tx) => {
        pid = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        await tx.query('SELECT pg_sleep(30)');
      });
      while (pid === null) await new Promise((r) => setTimeout(r, 20));
      // As a server restart or an administrator would: from outside the transaction, on the pool.
      await db.query('SELECT pg_terminate_backend($1)', [pid]);
      await expect(ended).rejects.toBeInstanceOf(Error);
      const written = await core.call('memories.write', { persona: 'main', content: 'after the cut' });
      expect(written.content).toBe('after the cut');
    } finally {
      await core.dispose();
    }
  }, 120_000);
});
