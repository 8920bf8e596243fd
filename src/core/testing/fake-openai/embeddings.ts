import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type FakeServer, sendError, sendJson } from './server';

export interface EmbeddingsRequestBody {
  model?: string;
  input: string | string[];
  dimensions?: number;
  encoding_format?: 'float' | 'base64';
}

/** One scripted misbehaviour, used up by one request. */
export type EmbeddingsFault =
  | { fail: number; message?: string }
  /** Answers after `ms` (never, when absent: until the client gives up). */
  | { hang: true; ms?: number }
  /** Answers normally once `until` settles: lets a test look at the state while a request is in flight. */
  | { gate: Promise<unknown> }
  | { wrongDimension: number }
  | { wrongCount: true };

export interface FakeEmbeddings {
  /** Size of the vectors served (change it to mimic another model). */
  dimensions: number;
  /** Scripted faults, served in order before normal answers resume. */
  push(...faults: EmbeddingsFault[]): void;
  failNext(n: number, status?: number): void;
  /** Every embeddings request body, in order. */
  readonly requests: EmbeddingsRequestBody[];
  /** Resolves when the next request arrives (before it is answered). */
  nextRequest(): Promise<EmbeddingsRequestBody>;
}

/**
 * A deterministic stand-in for an embedding model: a hashed bag of words,
 * normalised. Texts that share words are close; texts that share none are
 * orthogonal (modulo hash collisions).
 */
export function fakeVector(text: string, dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const h = createHash('sha256').update(word).digest();
    v[h.readUInt32BE(0) % dimensions]! += h[4]! & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...v);
  if (norm === 0) v[0] = 1;
  else for (let i = 0; i < dimensions; i++) v[i]! /= norm;
  return v;
}

function encode(v: Float32Array, format: 'float' | 'base64'): number[] | string {
  return format === 'base64' ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : Array.from(v);
}

/** Installs `/v1/embeddings` on a fake server. */
export function installEmbeddings(server: FakeServer, options: { dimensions?: number } = {}): FakeEmbeddings {
  const faults: EmbeddingsFault[] = [];
  const requests: EmbeddingsRequestBody[] = [];
  let waiters: ((b: EmbeddingsRequestBody) => void)[] = [];

  const answer = (res: ServerResponse, body: EmbeddingsRequestBody, dims: number, count?: number) => {
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    const format = body.encoding_format ?? 'float';
    const data = inputs.slice(0, count ?? inputs.length).map((text, index) => ({
      object: 'embedding',
      index,
      embedding: encode(fakeVector(text, dims), format),
    }));
    // Real servers do not promise order: answer reversed, the client must sort by index.
    data.reverse();
    sendJson(res, 200, { object: 'list', data, model: body.model ?? 'fake-embed', usage: { prompt_tokens: 1, total_tokens: 1 } });
  };

  const fake: FakeEmbeddings = {
    dimensions: options.dimensions ?? 16,
    push: (...f) => void faults.push(...f),
    failNext(n, status = 500) {
      for (let i = 0; i < n; i++) faults.push({ fail: status });
    },
    requests,
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
  };

  server.route('POST', '/embeddings', async (req, raw, res) => {
    const body = raw as EmbeddingsRequestBody;
    requests.push(body);
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve(body);
    if (!body || (typeof body.input !== 'string' && !Array.isArray(body.input))) {
      return sendError(res, 400, "'input' is required", 'invalid_request_error');
    }
    const fault = faults.shift();
    if (!fault) return answer(res, body, fake.dimensions);
    if ('fail' in fault) return sendError(res, fault.fail, fault.message ?? `fake embeddings failure (HTTP ${fault.fail})`);
    if ('wrongDimension' in fault) return answer(res, body, fault.wrongDimension);
    if ('wrongCount' in fault) return answer(res, body, fake.dimensions, Math.max(0, (Array.isArray(body.input) ? body.input.length : 1) - 1));
    if ('gate' in fault) {
      await fault.gate.catch(() => undefined);
      if (!res.destroyed) answer(res, body, fake.dimensions);
      return;
    }
    // hang: answer late, or never (the socket is closed when the client aborts or the server closes)
    if (fault.ms === undefined) return new Promise<void>((resolve) => req.on('close', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (!res.destroyed) answer(res, body, fake.dimensions);
  });
  return fake;
}
