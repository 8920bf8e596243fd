// The "done when" of server mode (docs/server-mode.md): two Hearths, each with
// its own data folder, on one PostgreSQL server, one browser page each. What
// one person does on one device shows on the other without a reload. Needs a
// server: `npm run test:servers` runs it against its throwaway cluster
// (HEARTH_TEST_DATABASE_URL); without one it skips and says why.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { type RunningHost, spawnHost } from './host-process';
import { AppPage } from './pages/AppPage';

const admin = process.env.HEARTH_TEST_DATABASE_URL?.trim() ?? '';
// pglite-socket serves one session to every connection: two Hearths need a real server.
const skipReason = !admin
  ? 'no PostgreSQL server: set HEARTH_TEST_DATABASE_URL=postgres://… or run `npm run test:servers`'
  : admin === 'pglite-socket'
    ? 'pglite-socket cannot hold two Hearths on one database'
    : null;
if (skipReason) console.log(`two-hosts.spec.ts skips: ${skipReason}`);

/** A call to a host's API with its page token (the tokened URL carries it). */
async function call<T>(host: RunningHost, method: string, args: unknown): Promise<T> {
  const token = new URL(host.url).searchParams.get('token')!;
  const res = await fetch(`http://127.0.0.1:${host.port}/api/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const env = (await res.json()) as { ok: boolean; data: T; error?: { message: string } };
  if (!env.ok) throw new Error(`${method}: ${env.error?.message}`);
  return env.data;
}

async function onAdmin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

test.describe('two Hearths on one PostgreSQL server', () => {
  test.skip(skipReason !== null, skipReason ?? '');

  const database = `hearth_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  const dirs: string[] = [];
  const hosts: RunningHost[] = [];

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await onAdmin(`CREATE DATABASE ${database}`);
    const url = new URL(admin);
    url.pathname = `/${database}`;
    // Both start at once on the empty database: the migrations' advisory lock lets one migrate while the other waits.
    const started = await Promise.all(
      [0, 1].map(() => {
        const dataDir = mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
        dirs.push(dataDir);
        return spawnHost({ dataDir, token: randomBytes(16).toString('hex'), databaseUrl: url.toString() });
      }),
    );
    hosts.push(...started);
  });

  test.afterAll(async () => {
    for (const h of hosts) {
      const code = await h.stop();
      if (code !== 0) console.log(`a host stopped with code ${code}:\n${h.output()}`);
    }
    await onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('a memory written in one window appears in the other\'s list without a reload; a persona made on one is listed on the other; one jobs table', async ({ browser }) => {
    const [pageA, pageB] = await Promise.all([browser.newPage(), browser.newPage()]);
    const a = new AppPage(pageA);
    const b = new AppPage(pageB);
    await Promise.all([pageA.goto(hosts[0]!.url), pageB.goto(hosts[1]!.url)]);
    await Promise.all([a.ready(), b.ready()]);
    await Promise.all([a.go('memories'), b.go('memories')]);
    await expect(b.memories.rows).toHaveCount(0);

    await a.memories.create({ content: 'The spare key is under the blue flowerpot', category: 'home', importance: 7 });
    // No reload on B: the change arrives through the server's notifications.
    await expect(b.memories.row('The spare key is under the blue flowerpot')).toBeVisible();
    await expect(b.memories.row('The spare key is under the blue flowerpot').getByTestId('memory-category')).toHaveText('home');

    // And the other way round, an edit this time.
    await b.memories.edit('The spare key is under the blue flowerpot', { content: 'The spare key is with the neighbour now' });
    await expect(a.memories.row('The spare key is with the neighbour now')).toBeVisible();
    await expect(a.memories.row('The spare key is under the blue flowerpot')).toHaveCount(0);

    await a.personas.create('Garden club');
    await expect(b.page.getByTestId('persona-name').filter({ hasText: /^Garden club$/ })).toBeVisible();

    // One jobs table: a file given to A is ingested by whichever Hearth claims the job, and B sees it done.
    const text = Buffer.from('Ferns like shade and damp soil. Water them weekly.').toString('base64');
    const { jobId, source } = await call<{ jobId: string; source: string }>(hosts[0]!, 'knowledge.ingest', { persona: 'main', name: 'ferns.txt', dataBase64: text });
    await expect
      .poll(async () => (await call<{ jobs: { id: string; state: string }[] }>(hosts[1]!, 'jobs.list', { queue: 'ingest' })).jobs.find((j) => j.id === jobId)?.state, {
        timeout: 60_000,
      })
      .toBe('completed');
    expect((await call<{ source: string }[]>(hosts[1]!, 'knowledge.listSources', { persona: 'main' })).map((k) => k.source)).toContain(source);

    await expect(a.errorToasts()).toHaveCount(0);
    await expect(b.errorToasts()).toHaveCount(0);
    await Promise.all([pageA.close(), pageB.close()]);
  });
});
