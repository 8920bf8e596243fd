import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallMeta } from '../shared/actor';
import { guardPagePaths, type UploadSink } from '../core';
import type { Envelope } from '../shared/api';
import { BodyTooLarge, discardRest, readBody } from './body';
import { sendJson, sendText } from './http-util';
import { type Downloads, offerDownload } from './downloads';
import { DISCARD_CAP, handleIngestUpload } from './ingest-route';

export type Dispatch = (method: string, args: unknown, meta?: CallMeta) => Promise<Envelope<unknown>>;

/** Every method but knowledge.ingest (streamed to disk) takes small JSON objects. */
export const BODY_LIMIT = 4 * 1024 * 1024;

/** POST /api/<method>: the caller is already authenticated. Every outcome the core decides is an envelope with HTTP 200. */
export async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  dispatch: Dispatch,
  uploads: UploadSink,
  extra: { imports?: UploadSink; downloads?: Downloads } = {},
): Promise<void> {
  if (req.method !== 'POST') {
    sendText(res, 405, 'Use POST for /api/<method>.', { allow: 'POST' });
    return;
  }
  if (method === 'knowledge.ingest') return handleIngestUpload(req, res, uploads);
  if (method === 'personas.import' && extra.imports) return handleIngestUpload(req, res, extra.imports, 'personas.import');
  let raw: string;
  try {
    raw = await readBody(req, BODY_LIMIT);
  } catch (e) {
    if (!(e instanceof BodyTooLarge)) throw e;
    sendText(res, 413, `The request is larger than ${e.limit} bytes.`);
    return discardRest(req, DISCARD_CAP);
  }
  let args: unknown = {};
  if (raw.trim()) {
    try {
      args = JSON.parse(raw);
    } catch (e) {
      sendJson(res, 200, { ok: false, error: { code: 'invalid_args', message: `The request body is not valid JSON: ${(e as Error).message}` } });
      return;
    }
  }
  // The page is the user's own app: its calls are the user's, whatever the body says.
  // It never makes the host read a file by path (docs/security.md); a folder to watch is checked by the
  // core against the folders named at launch (docs/watched-folders.md).
  const answer = guardPagePaths(method, args, () => method === 'knowledge.watch', true) ?? (await dispatch(method, args, { actor: 'user' }));
  // An export is written inside the data folder; the page gets a one-time download instead of that path.
  sendJson(res, 200, method === 'personas.export' ? await offerDownload(answer, extra.downloads) : answer);
}
