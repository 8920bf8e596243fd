import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallMeta } from '../shared/actor';
import type { Envelope } from '../shared/api';
import { BodyTooLarge, readBody, sendJson, sendText } from './http-util';

export type Dispatch = (method: string, args: unknown, meta?: CallMeta) => Promise<Envelope<unknown>>;

/** knowledge.ingest carries whole files as base64 (SPEC §6: up to ~100 MB → ~135 MB of JSON). */
export const INGEST_BODY_LIMIT = 150 * 1024 * 1024;
/** Every other method takes small JSON objects. */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

export function bodyLimitFor(method: string): number {
  return method === 'knowledge.ingest' ? INGEST_BODY_LIMIT : DEFAULT_BODY_LIMIT;
}

/** POST /api/<method>: the caller is already authenticated. Every outcome the core decides is an envelope with HTTP 200. */
export async function handleApi(req: IncomingMessage, res: ServerResponse, method: string, dispatch: Dispatch): Promise<void> {
  if (req.method !== 'POST') {
    sendText(res, 405, 'Use POST for /api/<method>.', { allow: 'POST' });
    return;
  }
  let raw: string;
  try {
    raw = await readBody(req, bodyLimitFor(method));
  } catch (e) {
    if (!(e instanceof BodyTooLarge)) throw e;
    sendText(res, 413, `The request is larger than ${e.limit} bytes.`, { connection: 'close' });
    return;
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
  sendJson(res, 200, await dispatch(method, args, { actor: 'user' }));
}
