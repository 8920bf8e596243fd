// One-time downloads of exported personas (docs/export.md): personas.export
// writes the file inside the data folder; the page gets `/download/<id>`,
// fetched once with the same Bearer token, then the file is removed. The
// page never learns the file's path on this computer.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Envelope } from '../shared/api';
import { sendText } from './http-util';

/** A download not fetched within this long is removed. */
const TTL_MS = 15 * 60 * 1000;

interface Pending {
  path: string;
  name: string;
  timer: NodeJS.Timeout;
}

export class Downloads {
  private readonly pending = new Map<string, Pending>();

  offer(path: string, name: string): string {
    const id = randomBytes(24).toString('base64url');
    const timer = setTimeout(() => void this.drop(id), TTL_MS);
    timer.unref();
    this.pending.set(id, { path, name, timer });
    return `/download/${id}`;
  }

  private async drop(id: string): Promise<void> {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    await rm(p.path, { force: true });
  }

  /** GET /download/<id>: the caller is already authenticated. Sends the file once, then removes it. */
  async serve(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    if (req.method !== 'GET') return sendText(res, 405, 'Use GET for a download.', { allow: 'GET' });
    const p = this.pending.get(id);
    if (!p) return sendText(res, 404, 'This download is gone: each export can be downloaded once. Export again.');
    this.pending.delete(id);
    clearTimeout(p.timer);
    try {
      const { size } = await stat(p.path);
      res.writeHead(200, {
        'content-type': 'application/gzip',
        'content-length': size,
        'cache-control': 'no-store',
        // RFC 6266: a plain ASCII fallback and the real (UTF-8) name.
        'content-disposition': `attachment; filename="${p.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(p.name)}`,
      });
      await pipeline(createReadStream(p.path), res);
    } finally {
      await rm(p.path, { force: true });
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((id) => this.drop(id)));
  }
}

/** Turns personas.export's answer into `{name, bytes, url}` for the page. */
export async function offerDownload(answer: Envelope<unknown>, downloads: Downloads | undefined): Promise<Envelope<unknown>> {
  if (!answer.ok) return answer;
  const { name, bytes, path } = answer.data as { name: string; bytes: number; path: string };
  if (!downloads) {
    await rm(path, { force: true });
    return { ok: false, error: { code: 'internal', message: 'This door cannot hand out downloads.' } };
  }
  return { ok: true, data: { name, bytes, url: downloads.offer(path, name) } };
}
