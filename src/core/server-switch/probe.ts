// "Test connection" in Settings → Data (docs/server-mode.md, "Switching in
// Settings"): one connection with a short timeout, read-only statements, then
// closed. It tells what the server is and what the database already holds, so
// Hearth never writes into a database that belongs to something else.
import type pg from 'pg';
import { loadPg } from '../db/pg-lib';
import type { DatabaseProbe } from '../../shared/types';
import { readMigrations, findMigrationsDir } from '../db/migrate';
import { connectionError } from '../db/server';
import { connectionConfig, describeServer, parseDatabaseUrl } from '../db/server-url';

/** Long enough for a server across the internet, short enough that a wrong host answers while the dialog is open. */
const CONNECT_TIMEOUT_MS = 8_000;
const QUERY_TIMEOUT_MS = 10_000;

type Presence = DatabaseProbe['vector'];

function presence(rows: { name: string; installed: boolean }[], name: string): Presence {
  const r = rows.find((x) => x.name === name);
  return !r ? 'missing' : r.installed ? 'installed' : 'available';
}

/** Tables, views and sequences outside the system schemas: whatever a database holds of its own. */
const OWN_RELATIONS = `
  SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
     AND s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname NOT LIKE 'pg\\_toast%' AND s.nspname NOT LIKE 'pg\\_temp%'`;

async function readContents(c: pg.Client, known: Set<string>): Promise<DatabaseProbe['contents']> {
  const { rows: own } = await c.query<{ n: number }>(OWN_RELATIONS);
  const tables = own[0]!.n;
  if (tables === 0) return { kind: 'empty' };
  // A Hearth database: Hearth's migrations table, whose rows are Hearth's migration files, and its personas table.
  const { rows: marks } = await c.query<{ migrations: boolean; personas: boolean }>(
    `SELECT to_regclass('schema_migrations') IS NOT NULL AS migrations, to_regclass('personas') IS NOT NULL AS personas`,
  );
  if (!marks[0]!.migrations || !marks[0]!.personas) return { kind: 'other', tables };
  const { rows: applied } = await c.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
  const names = applied.map((r) => String(r.name));
  if (!names.includes('0001_init.sql')) return { kind: 'other', tables };
  const { rows: personas } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM personas WHERE NOT importing');
  return {
    kind: 'hearth',
    schema: names.at(-1)!.replace(/\.sql$/, ''),
    migrations: names.length,
    personas: personas[0]!.n,
    newer: names.some((n) => !known.has(n)),
  };
}

function copyVerdict(p: Omit<DatabaseProbe, 'copy'>): DatabaseProbe['copy'] {
  switch (p.contents.kind) {
    case 'other':
      return {
        ok: false,
        reason: `The database "${p.server.split('/').pop()}" already holds ${p.contents.tables} tables that are not Hearth's. Hearth never writes into another program's database: create an empty database for Hearth and use that.`,
      };
    case 'hearth':
      if (p.contents.newer) return { ok: false, reason: 'The Hearth on this server was made by a newer version of Hearth. Update Hearth first.' };
      return { ok: true };
    case 'empty':
      return { ok: true };
  }
}

/**
 * Connects to the server at `url` and reports what it found. Throws an
 * AppError ('database_server') naming the server and the reason — never the
 * URL, so never the password.
 */
export async function probeServer(url: string): Promise<DatabaseProbe> {
  // A URL typed in Settings: no file or socket on this computer, no password but its own (server-url.ts).
  const parsed = parseDatabaseUrl(url, 'settings');
  const { address } = parsed;
  const client = new (await loadPg()).Client({ ...(await connectionConfig(parsed)), connectionTimeoutMillis: CONNECT_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS });
  // A connection dropped while we read is reported by the query that fails; this only keeps Node from crashing on it.
  client.on('error', () => undefined);
  try {
    await client.connect();
    // Nothing here writes: the session is read-only, so even a mistake in this module cannot change the database.
    await client.query('SET default_transaction_read_only = on');
    const { rows: v } = await client.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
    const { rows: ext } = await client.query<{ name: string; installed: boolean }>(
      `SELECT name, bool_or(installed) AS installed FROM (
         SELECT name, installed_version IS NOT NULL AS installed FROM pg_available_extensions WHERE name IN ('vector', 'pg_textsearch')
         UNION ALL SELECT extname, true FROM pg_extension WHERE extname IN ('vector', 'pg_textsearch')) x
       GROUP BY name`,
    );
    const known = new Set(readMigrations(findMigrationsDir()).map((m) => m.name));
    const found = {
      server: describeServer(address),
      version: v[0]!.version.split(' ')[0]!,
      vector: presence(ext, 'vector'),
      textSearch: presence(ext, 'pg_textsearch'),
      contents: await readContents(client, known),
    };
    return { ...found, copy: copyVerdict(found) };
  } catch (e) {
    throw connectionError(e, address);
  } finally {
    await client.end().catch(() => undefined);
  }
}
