import { test as base, type Page } from '@playwright/test';
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
  /** Navigates `page` (default: the test's page) to the tokened URL. */
  openApp: (page?: Page) => Promise<Page>;
  /** The fake OpenAI-compatible server when `fakeOpenAI: true`, else null. */
  fake: FakeServer | null;
}

export interface HostOptions {
  /** Start the fake OpenAI server and point the app's chat model at it (settings.set). */
  fakeOpenAI: boolean;
}

interface WorkerFixtures {
  /** A migrated, cleanly closed data dir, copied for each test (see template.ts). */
  hostTemplate: string;
  /** This worker's hosts: the next one starting while a test runs, finished ones stopped in the background. */
  hostPool: HostPool;
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
  const { dataDir, token, running } = await pool.take();
  const host = makeHost(dataDir, token, running) as Host & { stop(): Promise<number | null> };
  return Object.assign(host, { release: () => pool.release(() => host.stop(), dataDir) });
}

export const test = base.extend<HostFixtures & HostOptions, WorkerFixtures>({
  fakeOpenAI: [false, { option: true }],

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

  fake: async ({ fakeOpenAI }, use) => {
    const server = fakeOpenAI ? await startFakeServer() : null;
    await use(server);
    await server?.close();
  },

  host: [
    async ({ hostPool, fake }, use, testInfo) => {
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

  openApp: async ({ host, page }, use) => {
    await use(async (target = page) => {
      await target.goto(host.url);
      return target;
    });
  },
});
