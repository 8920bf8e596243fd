import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { BackendPort } from './proxy';

/** How often a watched block is read again while the owner cannot push (a running app's stateless HTTP door). */
export const WATCH_EVERY_MS = 2_000;

/**
 * Subscriptions the owner could not take (docs/mcp.md): each subscribed
 * block is read through the owner every WATCH_EVERY_MS, and its host is told
 * when the text differs from the last read. Reads that fail (the owner going
 * away) are skipped; the next one tries again.
 */
export class ResourceWatch {
  private watched = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private reading = false;

  constructor(
    private readonly backend: BackendPort,
    private readonly updated: (uri: string) => void,
  ) {}

  /** Reads the block now (a bad URI fails here, as a subscribe to the owner would) and watches it. */
  async start(uri: string): Promise<void> {
    this.watched.set(uri, await this.read(uri));
    this.timer ??= setInterval(() => void this.look(), WATCH_EVERY_MS);
    this.timer.unref?.();
  }

  /** True when `uri` was watched here. */
  stop(uri: string): boolean {
    const had = this.watched.delete(uri);
    if (!this.watched.size) this.stopAll();
    return had;
  }

  stopAll(): void {
    this.watched.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async read(uri: string): Promise<string> {
    const out = await this.backend.run((c: Client) => c.readResource({ uri }));
    return out.contents.map((c) => ('text' in c ? c.text : '')).join('\n');
  }

  private async look(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      for (const [uri, last] of this.watched) {
        const now = await this.read(uri).catch(() => null);
        if (now === null || now === last || !this.watched.has(uri)) continue;
        this.watched.set(uri, now);
        this.updated(uri);
      }
    } finally {
      this.reading = false;
    }
  }
}
