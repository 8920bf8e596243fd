import type { IncomingMessage } from 'node:http';

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

/**
 * Feeds a request body to `onChunk` one piece at a time, the next piece only
 * once the previous one is handled (so a slow disk slows the client down
 * instead of filling memory). Stops at the first error, leaving the rest of
 * the body unread for `discardRest`.
 */
export function pumpBody(req: IncomingMessage, onChunk: (chunk: Buffer) => void | Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    // 'end' may come while the last piece is still being handled (pause() does not hold it back).
    let handling: Promise<void> = Promise.resolve();
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      req.off('data', onData).off('end', onEnd);
      req.pause();
      reject(e);
    };
    const onData = (chunk: Buffer) => {
      req.pause();
      handling = handling
        .then(() => onChunk(chunk))
        .then(() => {
          if (!failed) req.resume();
        }, fail);
    };
    const onEnd = () => {
      void handling.then(() => {
        if (!failed) resolve();
      });
    };
    req.on('data', onData).on('end', onEnd).once('error', fail);
    req.once('close', () => {
      if (!req.complete) fail(new Error('the client closed the connection before the body was complete'));
    });
    req.resume();
  });
}

/**
 * After an early answer (413, a refusal): reads and drops the rest of the body,
 * so the client gets to read the answer instead of a reset connection, up to
 * `cap` bytes more; past that the connection is cut.
 */
export function discardRest(req: IncomingMessage, cap: number): void {
  if (req.complete) return;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > cap) req.socket.destroy();
  });
  req.resume();
}

/** Reads a small body whole, refusing it the moment it passes `limit` bytes (nothing past that is kept). */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  await pumpBody(req, (chunk) => {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(chunk);
  });
  return Buffer.concat(chunks).toString('utf8');
}
