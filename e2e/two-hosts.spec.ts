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

  test('a memory written in one window appears in the other\'s list without a reload; a persona made on one is listed on the other', async ({ browser }) => {
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

    await expect(a.errorToasts()).toHaveCount(0);
    await expect(b.errorToasts()).toHaveCount(0);
    await Promise.all([pageA.close(), pageB.close()]);
  });
});
