// Settings → Data → "Use a PostgreSQL server": the connection test, the copy
// of this computer's personas into a server, and the switch at the next start.
// What needs no server (a refused connection, a saved server that is down, who
// may switch) runs everywhere; the rest against the server the test run names
// (HEARTH_TEST_DATABASE_URL: `npm run test:servers`) and says why it skips without one.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Events } from '../../shared/api';
import { type Core, createCore } from '../index';
import { templateCopy } from '../testing/core';
import { emptyTestDatabase, noServerReason, testBackend, type TestDatabase } from '../testing/server';
import { closedPort } from '../testing/ports';

const skipReason = noServerReason();
if (skipReason) console.log(`server-switch.test.ts: the tests that copy into a server skip: ${skipReason}`);

const PASSWORD = 'pw-7f3a1c9e';

/** The test database's URL with a password in it: the server ignores it (trust), Hearth must never show it. */
function withPassword(url: string): string {
  const u = new URL(url);
  u.password = PASSWORD;
  return u.toString();
}

/** Stops `name` taking connections and ends the ones it has, before returning (blocks the thread: psql runs it). */
function cutOff(admin: string, name: string): void {
  const sql = `ALTER DATABASE ${name} ALLOW_CONNECTIONS false; SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}';`;
  const u = new URL(admin);
  u.search = '';
  execFileSync('psql', [u.toString(), '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql], { stdio: ['ignore', 'ignore', 'pipe'] });
}

async function onDb<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function onCopy(core: Core, fn: (p: Events['database.copy']) => void): () => void {
  return core.events.subscribe((name, payload) => {
    if (name === 'database.copy') fn(payload as Events['database.copy']);
  });
}

async function visibleNames(url: string): Promise<string[]> {
  const { rows } = await onDb(url, (q) => q.query<{ name: string }>('SELECT name FROM personas WHERE NOT importing ORDER BY lower(name)'));
  return rows.map((r) => r.name);
}

const open: { core: Core; dir: string }[] = [];
const dbs: TestDatabase[] = [];

/** A core on this computer's PGlite (a copy of the migrated template), whatever server the run names. */
async function localCore(dir?: string): Promise<{ core: Core; dir: string }> {
  const dataDir = dir ?? (await templateCopy());
  const core = await createCore({ dataDir, dailyBackups: false, startupCheckDelayMs: null });
  const c = { core, dir: dataDir };
  open.push(c);
  return c;
}

async function reopen(c: { core: Core; dir: string }): Promise<{ core: Core; dir: string }> {
  await c.core.close();
  open.splice(open.indexOf(c), 1);
  return localCore(c.dir);
}

afterEach(async () => {
  for (const c of open.splice(0)) {
    await c.core.close().catch(() => undefined);
    rmSync(c.dir, { recursive: true, force: true });
  }
  for (const d of dbs.splice(0)) await d.drop();
}, 120_000);

// These need no server: in a server pass they would only repeat the PGlite pass, so they run there alone.
const NEEDS_NO_SERVER = 'needs no server: it runs in the plain PGlite pass (npm run test:unit)';
if (!skipReason) console.log(`server-switch.test.ts: "choosing a server, without one" skips here: ${NEEDS_NO_SERVER}`);

describe.skipIf(skipReason === null)('choosing a server, without one', () => {
  it('a refused connection is a clear answer, nothing is saved, and only the person may switch', async () => {
    const c = await localCore();
    const url = `postgres://hearth:${PASSWORD}@127.0.0.1:${await closedPort()}/hearth`;
    const test = await c.core.call('database.test', { url });
    expect(test.ok).toBe(false);
    expect(!test.ok && test.message).toMatch(/hearth@127\.0\.0\.1:\d+\/hearth: the connection was refused/);
    expect(JSON.stringify(test)).not.toContain(PASSWORD);
    const copy = await c.core.dispatch('database.copyAndSwitch', { url });
    expect(copy).toMatchObject({ ok: false, error: { code: 'database_server' } });
    expect(!copy.ok && copy.error.message).toContain("Hearth keeps using this computer's data");
    expect(JSON.stringify(copy)).not.toContain(PASSWORD);
    expect(await c.core.call('database.get', {})).toEqual({ active: { kind: 'local' }, saved: null, savedFailed: null, restartNeeded: false });
    // A malformed URL is refused at the boundary without repeating it.
    const bad = await c.core.dispatch('database.test', { url: `mysql://x:${PASSWORD}@h/d` });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(JSON.stringify(bad)).not.toContain(PASSWORD);
    // An AI tool over MCP cannot move the data.
    const mcp = await c.core.dispatch('database.useLocal', {}, { actor: 'mcp:Some Tool' });
    expect(mcp).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  }, 120_000);

  it('a saved server that cannot be reached at start opens this computer\'s data, says so, and can be forgotten', async () => {
    const c = await localCore();
    await c.core.call('memories.write', { persona: 'main', content: 'Keeps a sourdough starter called Clint' });
    const port = await closedPort();
    // As "Copy my data and switch" leaves it: the URL in the secret store.
    await c.core.ctx.secrets.set('database.url', `postgres://hearth:${PASSWORD}@127.0.0.1:${port}/hearth`);
    const again = await reopen(c);
    const view = await again.core.call('database.get', {});
    expect(view.active).toEqual({ kind: 'local' });
    expect(view.saved).toEqual({ server: `hearth@127.0.0.1:${port}/hearth` });
    expect(view.savedFailed).toMatch(/the connection was refused/);
    expect(view.restartNeeded).toBe(true);
    const info = await again.core.call('app.info', {});
    expect(info.notices.some((n) => n.includes("opened this computer's data instead"))).toBe(true);
    expect(JSON.stringify([view, info])).not.toContain(PASSWORD);
    expect((await again.core.call('memories.list', { persona: 'main' })).items.map((m) => m.content)).toContain('Keeps a sourdough starter called Clint');
    const local = await again.core.call('database.useLocal', {});
    expect(local.saved).toBeNull();
    expect(readFileSync(join(again.dir, 'secrets.json'), 'utf8')).not.toContain(PASSWORD);
  }, 180_000);
});

describe.skipIf(skipReason !== null)('copying into a server', () => {
  async function emptyDb(): Promise<TestDatabase> {
    const d = await emptyTestDatabase();
    dbs.push(d);
    return d;
  }
  // One local core for the tests that only test a server or copy a bare "main" (a core start is seconds under load).
  let shared: Core;
  let sharedDir: string;
  beforeAll(async () => {
    sharedDir = await templateCopy();
    shared = await createCore({ dataDir: sharedDir, dailyBackups: false, startupCheckDelayMs: null });
  }, 120_000);
  afterAll(async () => {
    await shared?.close();
    if (sharedDir) rmSync(sharedDir, { recursive: true, force: true });
  });

  it('the test reports the server and an empty database, and writes nothing', async () => {
    const d = await emptyDb();
    const test = await shared.call('database.test', { url: withPassword(d.url) });
    if (!test.ok) throw new Error(test.message);
    expect(test.version).toMatch(/^\d+(\.\d+)?/);
    expect(['installed', 'available', 'missing']).toContain(test.vector);
    expect(test.contents).toEqual({ kind: 'empty' });
    expect(test.copy).toEqual({ ok: true });
    expect(JSON.stringify(test)).not.toContain(PASSWORD);
    const tables = await onDb(d.url, (q) => q.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`));
    expect(tables.rows[0].n).toBe(0);
  }, 120_000);

  it('a database that holds something else is never touched', async () => {
    const c = { core: shared };
    const d = await emptyDb();
    await onDb(d.url, (q) => q.query(`CREATE TABLE invoices (id int PRIMARY KEY, total numeric); INSERT INTO invoices VALUES (1, 9.5)`));
    const test = await c.core.call('database.test', { url: d.url });
    expect(test).toMatchObject({ ok: true, contents: { kind: 'other', tables: 1 }, copy: { ok: false } });
    const copy = await c.core.dispatch('database.copyAndSwitch', { url: d.url });
    expect(copy).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(!copy.ok && copy.error.message).toMatch(/not Hearth's/);
    const after = await onDb(d.url, (q) => q.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`));
    expect(after.rows.map((r) => r.tablename)).toEqual(['invoices']);
    expect((await c.core.call('database.get', {})).saved).toBeNull();
  }, 120_000);

  it('copies every persona, saves the server for the next start, and leaves this computer\'s data as it was', async () => {
    const c = await localCore();
    const d = await emptyDb();
    await c.core.call('memories.write', { persona: 'main', content: 'Prefers green tea in the morning' });
    const work = await c.core.call('personas.create', { name: 'Work', avatar: '💼' });
    await c.core.call('memories.write', { persona: work.id, content: 'The quarterly report is due on Fridays' });
    await c.core.call('settings.set', { reviewEvery: 7 });
    const stages: string[] = [];
    const off = onCopy(c.core, (p) => stages.push(`${p.stage}:${p.persona}`));
    const out = await c.core.call('database.copyAndSwitch', { url: withPassword(d.url) });
    off();
    expect(out.personas.map((p) => [p.from, p.to])).toEqual([['main', 'main'], ['Work', 'Work']]);
    expect(stages).toContain('import:Work');
    expect(stages.at(-1)).toBe('done:');
    expect(out.view).toMatchObject({ active: { kind: 'local' }, saved: { server: out.server }, restartNeeded: true });
    expect(JSON.stringify(out)).not.toContain(PASSWORD);
    // This computer's data is untouched and still in use until the restart.
    expect((await c.core.call('personas.list', {})).map((p) => p.name)).toEqual(['main', 'Work']);

    const onServer = await reopen(c);
    const view = await onServer.core.call('database.get', {});
    expect(view).toMatchObject({ active: { kind: 'server', server: out.server, from: 'settings' }, restartNeeded: false, savedFailed: null });
    const personas = await onServer.core.call('personas.list', {});
    expect(personas.map((p) => [p.name, p.avatar])).toEqual([['main', null], ['Work', '💼']]);
    const contents = async (persona: string) => (await onServer.core.call('memories.list', { persona })).items.map((m) => m.content);
    expect(await contents('main')).toEqual(['Prefers green tea in the morning']);
    expect(await contents(personas[1]!.id)).toEqual(['The quarterly report is due on Fridays']);
    // The settings came along (a fresh server has none of its own).
    expect((await onServer.core.call('settings.get', {})).reviewEvery).toBe(7);

    // "Use this computer's data again": the next start opens the local data, which the copy left as it was.
    await onServer.core.call('database.useLocal', {});
    const back = await reopen(onServer);
    expect((await back.core.call('database.get', {})).active).toEqual({ kind: 'local' });
    expect((await back.core.call('personas.list', {})).map((p) => p.name)).toEqual(['main', 'Work']);
  }, 240_000);

  it('a name already on the server gets " (2)"', async () => {
    const d = await emptyDb();
    // The server already holds a Hearth with a "Work" persona (another device copied first).
    await shared.call('personas.create', { name: 'Work' });
    await shared.call('database.copyAndSwitch', { url: d.url });

    const c = await localCore();
    const work = await c.core.call('personas.create', { name: 'Work' });
    await c.core.call('memories.write', { persona: work.id, content: 'Standup is at nine' });
    const test = await c.core.call('database.test', { url: d.url });
    expect(test).toMatchObject({ ok: true, contents: { kind: 'hearth', personas: 2, newer: false }, copy: { ok: true } });
    const out = await c.core.call('database.copyAndSwitch', { url: d.url });
    expect(out.personas.map((p) => [p.from, p.to])).toEqual([['main', 'main (2)'], ['Work', 'Work (2)']]);
    expect(await visibleNames(d.url)).toEqual(['main', 'main (2)', 'Work', 'Work (2)']);
  }, 240_000);

  const NOT_POSTGRES = 'cutting a copy off needs a real PostgreSQL server (it stops the database accepting connections)';
  it.skipIf(testBackend() !== 'server')(`a copy cut off midway switches nothing and shows nothing half-copied (${NOT_POSTGRES} elsewhere)`, async () => {
    const d = await emptyDb();
    const c = await localCore();
    await c.core.call('memories.write', { persona: 'main', content: 'Waters the ferns on Sundays' });
    await c.core.call('personas.create', { name: 'Work' });
    const name = new URL(d.url).pathname.slice(1);
    const admin = process.env.HEARTH_TEST_DATABASE_URL!;
    // The server goes away just as the second persona's import starts: its database stops taking
    // connections. The cut runs synchronously inside the progress listener (psql, not the async
    // client), so the copy cannot take another step until the cut is done, however fast the machine.
    let cuts = 0;
    const off = onCopy(c.core, (p) => {
      if (p.stage === 'import' && p.index === 2 && cuts === 0) {
        cuts++;
        cutOff(admin, name);
      }
    });
    const failed = await c.core.dispatch('database.copyAndSwitch', { url: d.url });
    off();
    expect(cuts).toBe(1);
    // Cut while a line was being stored (import_error naming the line) or between statements (database_server).
    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.error.message).toContain("Nothing was switched: Hearth keeps using this computer's data");
    expect((await c.core.call('database.get', {})).saved).toBeNull();
    expect((await c.core.call('memories.list', { persona: 'main' })).items.map((m) => m.content)).toEqual(['Waters the ferns on Sundays']);

    await onDb(admin, (q) => q.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
    // What the copy had written is hidden (no device lists it) and the next Hearth to start there removes it.
    expect(await visibleNames(d.url)).toEqual([]);
    const dir = await templateCopy();
    const onServer = await createCore({ dataDir: dir, databaseUrl: d.url, dailyBackups: false });
    open.push({ core: onServer, dir });
    expect((await onServer.call('personas.list', {})).map((p) => [p.id, p.counts.memories])).toEqual([['main', 0]]);
    const all = await onDb(d.url, (q) => q.query('SELECT count(*)::int AS n FROM personas'));
    expect(all.rows[0].n).toBe(1);
    // And a second try goes through: an empty Hearth's "main" gives way to this computer's, as on a new database.
    const out = await c.core.call('database.copyAndSwitch', { url: d.url });
    expect(out.personas.map((p) => p.to)).toEqual(['main', 'Work']);
    expect(await visibleNames(d.url)).toEqual(['main', 'Work']);
  }, 240_000);
});
