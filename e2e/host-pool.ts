import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningHost, spawnHost } from './host-process';

/**
 * The tests open the app as a returning user: the first-launch welcome (above every view until it is
 * dismissed) is dismissed, as a person does once. e2e/layout.spec.ts shows it to a first user.
 */
async function dismissWelcome(port: number, token: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/api/settings.set`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ welcomeDismissed: true }),
  });
  if (res.status !== 200 || !((await res.json()) as { ok: boolean }).ok) throw new Error(`settings.set welcomeDismissed: HTTP ${res.status}`);
}

/** A host on its own fresh copy of the template, started and serving. */
export interface FreshHost {
  dataDir: string;
  token: string;
  running: RunningHost;
}

/**
 * One Playwright worker's hosts. Starting a host (Node + PGlite) and shutting
 * it down cleanly are most of an e2e test's fixed cost, so the worker keeps
 * the next test's host starting while the current test runs, and stops
 * finished hosts in the background (docs/testing.md). Every test still gets
 * a host of its own on a data folder nobody else opened.
 */
export class HostPool {
  private spare: Promise<FreshHost> | null = null;
  private readonly stopping = new Set<Promise<void>>();

  constructor(private readonly template: string) {}

  private start(): Promise<FreshHost> {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
    cpSync(this.template, dataDir, { recursive: true });
    const token = randomBytes(32).toString('base64url');
    return spawnHost({ dataDir, token }).then(
      async (running) => {
        try {
          await dismissWelcome(running.port, token);
        } catch (e) {
          await running.stop();
          rmSync(dataDir, { recursive: true, force: true });
          throw e;
        }
        return { dataDir, token, running };
      },
      (e: unknown) => {
        rmSync(dataDir, { recursive: true, force: true });
        throw e;
      },
    );
  }

  /**
   * The started spare (or a new host). With `spare` (the default: a test that needed a fresh host is
   * usually followed by another) the next spare begins starting; a worker's shared host asks for none,
   * since the tests after it run on it and a spare would only compete with them for the cores.
   */
  async take({ spare = true }: { spare?: boolean } = {}): Promise<FreshHost> {
    const next = this.spare ?? this.start();
    this.spare = null;
    let host: FreshHost;
    try {
      host = await next;
    } catch {
      // A spare that failed to start (a busy machine): one more try, in the foreground, so the error is the test's.
      host = await this.start();
    }
    if (spare) {
      this.spare = this.start();
      // A spare nobody takes is stopped at the end; until then its failure must not surface as unhandled.
      this.spare.catch(() => undefined);
    }
    return host;
  }

  /** Stops a host and removes its folder without holding up the next test. */
  release(stop: () => Promise<unknown>, dataDir: string): void {
    const done = stop()
      .catch(() => undefined)
      .then(() => rmSync(dataDir, { recursive: true, force: true }));
    this.stopping.add(done);
    void done.then(() => this.stopping.delete(done));
  }

  /** At the worker's end: the untaken spare stopped, every background stop finished. */
  async close(): Promise<void> {
    const spare = this.spare;
    this.spare = null;
    if (spare) {
      const host = await spare.catch(() => null);
      if (host) this.release(() => host.running.stop(), host.dataDir);
    }
    await Promise.all([...this.stopping]);
  }
}
