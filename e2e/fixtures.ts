import { test as base, expect, type Page } from '@playwright/test';
import type { ArgsOf, Envelope, Method, ResultOf } from '../src/shared/api';
import { type FakeServer, startFakeServer } from '../src/core/testing/fake-openai/server';
import { HostPool } from './host-pool';
import { type RunningHost, spawnHost } from './host-process';
import { dataDirTemplate } from './template';

export { expect } from '@playwright/test';

export interface Host {
  /** The tokened page URL, http://127.0.0.1:<port>/?token=<token>. */
  readonly url: string;
  readonly token: string;
  readonly dataDir: string;
  /** http://127.0.0.1:<port> */
  readonly baseUrl: string;
  readonly port: number;
  /** POST /api/<method> with the token; resolves with the envelope. */
  api<M extends Method>(method: M, args: ArgsOf<M>): Promise<Envelope<ResultOf<M>>>;
  /** Like api(), but unwraps the envelope and throws on {ok:false}. */
  call<M extends Method>(method: M, args: ArgsOf<M>): Promise<ResultOf<M>>;
  /** Stops the host (releasing its data) and starts it again on the same data, port and token. */
  restart(): Promise<void>;
  /** What the host process printed so far. */
  output(): string;
}

export interface HostFixtures {
  host: Host;
  /**
   * The persona the test works in: `main` on a host of its own; with `sharedHost`, a persona
   * created for this test alone (its id), which `openApp` switches to.
   */
  persona: string;
  /** Navigates `page` (default: the test's page) to the tokened URL. */
  openApp: (page?: Page) => Promise<Page>;
  /** The fake OpenAI-compatible server when `fakeOpenAI: true`, else null. */
  fake: FakeServer | null;
}

export interface HostOptions {
  /** Start the fake OpenAI server and point the app's chat model at it (settings.set). */
  fakeOpenAI: boolean;
  /**
   * Run on the worker's shared host, in a fresh persona (`persona`), instead of starting a host for
   * this test alone. Only for tests whose every check is about their own persona (e2e/README.md).
   */
  sharedHost: boolean;
}

interface WorkerFixtures {
  /** A migrated, cleanly closed data dir, copied for each test (see template.ts). */
  hostTemplate: string;
  /** This worker's hosts: the next one starting while a test runs, finished ones stopped in the background. */
  hostPool: HostPool;
  /** One host for all of this worker's `sharedHost` tests, taken when the first one asks for it. */
  workerHost: () => Promise<Host>;
}

/**
 * Same port, so open pages can reload. On a busy machine another socket can
 * take the just-freed port for a moment: retry, then settle for a new port.
 */
async function respawnOnPort(dataDir: string, token: string, port: number): Promise<RunningHost> {
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      return await spawnHost({ dataDir, token, port });
    } catch (e) {
      if (!/cannot listen/.test(String(e))) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  return spawnHost({ dataDir, token });
}

function makeHost(dataDir: string, token: string, first: RunningHost): Host {
  let running = first;
  const host: Host = {
    get url() {
      return running.url;
    },
    token,
    dataDir,
    get baseUrl() {
      return `http://127.0.0.1:${running.port}`;
    },
    get port() {
      return running.port;
    },
    async api(method, args) {
      const res = await fetch(`${host.baseUrl}/api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as Envelope<ResultOf<typeof method>>;
    },
    async call(method, args) {
      const env = await host.api(method, args);
      if (!env.ok) throw new Error(`${method} failed: ${env.error.code}: ${env.error.message}`);
      return env.data;
    },
    async restart() {
      const port = running.port;
      const code = await running.stop();
      if (code !== 0) throw new Error(`the host did not shut down cleanly (code ${code}):\n${running.output()}`);
      running = await respawnOnPort(dataDir, token, port);
    },
    output: () => running.output(),
  };
  return Object.assign(host, { stop: () => running.stop() });
}

/**
 * A host from the worker's pool for several tests at once (taken in `beforeAll`, released in
 * `afterAll`): for tests that only send requests which must change nothing, or only what they
 * name, so none depends on another's leftovers. Saves a host start per test (docs/testing.md).
 */
export async function takeSharedHost(pool: HostPool): Promise<Host & { release(): void }> {
  const { dataDir, token, running } = await pool.take({ spare: false });
  const host = makeHost(dataDir, token, running) as Host & { stop(): Promise<number | null> };
  return Object.assign(host, { release: () => pool.release(() => host.stop(), dataDir) });
}

export const test = base.extend<HostFixtures & HostOptions, WorkerFixtures>({
  fakeOpenAI: [false, { option: true }],
  sharedHost: [false, { option: true }],

  hostTemplate: [
    async ({}, use) => {
      await use(await dataDirTemplate());
    },
    { scope: 'worker', timeout: 180_000 },
  ],

  hostPool: [
    async ({ hostTemplate }, use) => {
      const pool = new HostPool(hostTemplate);
      await use(pool);
      await pool.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],

  workerHost: [
    async ({ hostPool }, use) => {
      let shared: ReturnType<typeof takeSharedHost> | null = null;
      await use(() => (shared ??= takeSharedHost(hostPool)));
      if (shared) (await (shared as ReturnType<typeof takeSharedHost>)).release();
    },
    { scope: 'worker', timeout: 90_000 },
  ],

  fake: async ({ fakeOpenAI }, use) => {
    const server = fakeOpenAI ? await startFakeServer() : null;
    await use(server);
    await server?.close();
  },

  host: [
    async ({ hostPool, fake, sharedHost, workerHost }, use, testInfo) => {
      if (sharedHost) {
        const shared = await workerHost();
        // A test on the shared host sees a chat model only when it asked for the fake one.
        if (fake) await shared.call('settings.set', { chat: { baseUrl: fake.baseURL, model: 'fake-chat', apiKey: 'sk-fake' } });
        try {
          await use(shared);
        } finally {
          if (testInfo.status !== testInfo.expectedStatus) {
            await testInfo.attach('host-output.txt', { body: shared.output(), contentType: 'text/plain' });
          }
          if (fake) await shared.call('settings.set', { chat: { baseUrl: null, model: null, apiKey: null } });
        }
        return;
      }
      const { dataDir, token, running } = await hostPool.take();
      const host = makeHost(dataDir, token, running) as Host & { stop(): Promise<number | null> };
      try {
        if (fake) {
          await host.call('settings.set', { chat: { baseUrl: fake.baseURL, model: 'fake-chat', apiKey: 'sk-fake' } });
        }
        await use(host);
      } finally {
        if (testInfo.status !== testInfo.expectedStatus) {
          await testInfo.attach('host-output.txt', { body: host.output(), contentType: 'text/plain' });
        }
        hostPool.release(() => host.stop(), dataDir);
      }
    },
    // Starting a host (Node + PGlite) is slow on a busy machine: it gets its own budget, apart from the test's.
    { timeout: 90_000 },
  ],

  persona: async ({ host, sharedHost }, use, testInfo) => {
    if (!sharedHost) return use('main');
    // Unique on the shared host: the test and its retry.
    const name = `E2E ${testInfo.testId} ${testInfo.retry}`;
    await use((await host.call('personas.create', { name })).id);
  },

  openApp: async ({ host, page, persona }, use) => {
    await use(async (target = page) => {
      await target.goto(host.url);
      if (persona !== 'main') {
        // As a person would: pick the test's persona in the sidebar (the app remembers it across reloads).
        const item = target.locator(`[data-testid="persona-item"][data-persona-id="${persona}"]`);
        await item.getByTestId('persona-switch').click();
        await expect(item).toHaveAttribute('data-active', 'true');
      }
      return target;
    });
  },
});
