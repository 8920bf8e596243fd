// Which database the tests run against (docs/testing.md, docs/server-mode.md):
//   (unset)                                   PGlite in a temp folder, as the app runs by default
//   HEARTH_TEST_DATABASE_URL=postgres://…     a PostgreSQL server: each test core gets a fresh
//                                             database copied from a migrated template database
//   HEARTH_TEST_DATABASE_URL=pglite-socket    PGlite served over the Postgres wire protocol
//                                             (@electric-sql/pglite-socket), one per test core
// One test body runs on all three; scripts/test-servers.mjs starts the servers.
import type { PGlite } from '@electric-sql/pglite';
import type { TestContext } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findMigrationsDir, readMigrations } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { copyTemplate } from './template';

export type TestBackend = 'pglite' | 'server' | 'pglite-socket';

const PGLITE_SOCKET = 'pglite-socket';

export function testBackend(): TestBackend {
  const url = process.env.HEARTH_TEST_DATABASE_URL?.trim();
  if (!url) return 'pglite';
  return url === PGLITE_SOCKET ? 'pglite-socket' : 'server';
}

/** For `it.skipIf(...)`: why a server-only test cannot run here, or null when it can. */
export function noServerReason(): string | null {
  return testBackend() === 'pglite'
    ? 'no PostgreSQL server configured: set HEARTH_TEST_DATABASE_URL (postgres://… or pglite-socket), or run `npm run test:servers`'
    : null;
}

/** A database of its own for one test core, and how to throw it away. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs fn on one admin connection to the configured server. */
async function onAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.HEARTH_TEST_DATABASE_URL! });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

let templateReady: Promise<string> | null = null;

/**
 * A migrated, empty database on the server, made once per set of migrations
 * (its name carries their hash) and shared by every test process: the first
 * makes it under an advisory lock, the others wait for it.
 */
function serverTemplate(migrate: (url: string) => Promise<void>): Promise<string> {
  templateReady ??= (async () => {
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256');
    for (const m of readMigrations(findMigrationsDir())) hash.update(m.name).update(m.checksum);
    const name = `hearth_tpl_${hash.digest('hex').slice(0, 12)}`;
    await onAdmin(async (c) => {
      await c.query('SELECT pg_advisory_lock(7355608)');
      try {
        const { rows } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (rows.length) return;
        const building = `${name}_building_${randomBytes(3).toString('hex')}`;
        await c.query(`CREATE DATABASE ${building}`);
        try {
          await migrate(withDatabase(process.env.HEARTH_TEST_DATABASE_URL!, building));
        } catch (e) {
          await c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
          throw e;
        }
        await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } finally {
        await c.query('SELECT pg_advisory_unlock(7355608)');
      }
    });
    return name;
  })();
  return templateReady;
}

/** A fresh database on the configured server, copied from the migrated template. */
async function serverDatabase(migrate: (url: string) => Promise<void>): Promise<TestDatabase> {
  const template = await serverTemplate(migrate);
  const name = `hearth_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: withDatabase(process.env.HEARTH_TEST_DATABASE_URL!, name),
    drop: () => onAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * pglite-socket multiplexes its connections onto PGlite's one session message
 * by message: a transaction's statements are kept together, but two
 * connections' extended-protocol messages (Parse, Bind, Execute) can
 * interleave and mix up their unnamed statements. So one connection per core
 * (pool_max=1), and only tests with one core per database run on it.
 */
function socketUrl(port: string): string {
  return `postgres://postgres@127.0.0.1:${port}/postgres?pool_max=1`;
}

/**
 * PGlite over the wire: a copy of the migrated PGlite template opened in this
 * process and served on a free 127.0.0.1 port. PGlite is one database, so
 * each test core has its own server.
 */
async function pgliteSocketDatabase(template: string): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-socket-'));
  copyTemplate(template, dir);
  const { pg: db } = await openPglite(join(dir, 'pgdata'));
  return serveOverSocket(db, () => rmSync(dir, { recursive: true, force: true }));
}

/** Serves one open PGlite on a free 127.0.0.1 port until dropped (then closed, and `cleanup` run). */
async function serveOverSocket(db: PGlite, cleanup: () => void = () => undefined): Promise<TestDatabase> {
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  const [, port] = server.getServerConn().split(':');
  return {
    url: socketUrl(port!),
    async drop() {
      await server.stop();
      await db.close();
      cleanup();
    },
  };
}

/** A database for one test core on the configured backend; null for plain PGlite. */
export async function testDatabase(opts: {
  /** Migrates an empty server database (the core itself, in core.ts). */
  migrate: (url: string) => Promise<void>;
  /** The migrated PGlite template folder (template.ts). */
  pgliteTemplate: () => Promise<string>;
}): Promise<TestDatabase | null> {
  switch (testBackend()) {
    case 'pglite':
      return null;
    case 'server':
      return serverDatabase(opts.migrate);
    case 'pglite-socket':
      return pgliteSocketDatabase(await opts.pgliteTemplate());
  }
}

/**
 * An empty (unmigrated) database on the configured backend, for tests of
 * migrating itself. On pglite-socket: a fresh in-memory PGlite with its extensions.
 */
export async function emptyTestDatabase(): Promise<TestDatabase> {
  if (testBackend() === 'server') {
    const name = `hearth_e_${process.pid}_${randomBytes(4).toString('hex')}`;
    await onAdmin((c) => c.query(`CREATE DATABASE ${name}`));
    return {
      url: withDatabase(process.env.HEARTH_TEST_DATABASE_URL!, name),
      drop: () => onAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
    };
  }
  const { pg: db } = await openPglite(null);
  return serveOverSocket(db);
}

export const NO_VECTORS = 'this server has no pgvector (text-only); the vector paths run on PGlite and on pglite-socket';

/**
 * For a test of the vector paths: on a server without pgvector it prints why
 * and skips (t.skip ends the test); elsewhere it does nothing.
 */
export function skipWithoutVectors(t: TestContext, db: { features: { vector: boolean } }): void {
  if (db.features.vector) return;
  console.log(`skipped "${t.task.name}": ${NO_VECTORS}`);
  t.skip(NO_VECTORS);
}
