import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathRefused, sizeText, type StagingWriter, type UploadSink } from '../core';
import { BodyTooLarge, discardRest, pumpBody } from './body';
import { sendJson } from './http-util';
import { IngestBodyReader, MalformedBody, RefusedField } from './ingest-body';

/** Room for the JSON around the base64 (persona, name, quotes). */
const FIELDS_ALLOWANCE = 16 * 1024;
/** How much of a refused body is read and dropped so the client sees the answer; past that the connection is cut. */
export const DISCARD_CAP = 256 * 1024 * 1024;

function tooLarge(res: ServerResponse, message: string): void {
  sendJson(res, 413, { ok: false, error: { code: 'too_large', message } });
}

/**
 * POST /api/knowledge.ingest: the file arrives as base64 inside the JSON body
 * and goes straight to a staging file as it is decoded, with the size limit
 * checked on every piece (413 the moment it is crossed). A `path` is refused
 * before anything is read from the disk: the page only ever uploads bytes.
 */
export async function handleIngestUpload(
  req: IncomingMessage,
  res: ServerResponse,
  sink: UploadSink,
  method: 'knowledge.ingest' | 'personas.import' = 'knowledge.ingest',
): Promise<void> {
  const maxBytes = await sink.maxBytes();
  const cap = Math.ceil(maxBytes / 3) * 4 + FIELDS_ALLOWANCE;
  const limitText =
    method === 'knowledge.ingest'
      ? `The upload is larger than the ${sizeText(maxBytes)} limit (Settings → maximum file size).`
      : `The file is larger than ${sizeText(maxBytes)}, the most a persona file can be. Nothing was imported.`;
  if (Number(req.headers['content-length'] ?? 0) > cap) {
    tooLarge(res, limitText);
    return discardRest(req, DISCARD_CAP);
  }

  let writer: StagingWriter | null = null;
  const reader = new IngestBodyReader({
    refused: ['path'],
    async onData(bytes) {
      writer ??= await sink.open(reader.fields.name ?? null, maxBytes);
      await writer.write(bytes);
    },
  });
  let read = 0;
  try {
    await pumpBody(req, async (chunk) => {
      read += chunk.length;
      if (read > cap) throw new BodyTooLarge(cap);
      await reader.push(chunk);
    });
    await reader.end();
  } catch (e) {
    await (writer as StagingWriter | null)?.discard();
    if (e instanceof BodyTooLarge) tooLarge(res, limitText);
    else if (e instanceof RefusedField) sendJson(res, 200, pathRefused(true));
    else if (e instanceof MalformedBody) sendJson(res, 200, { ok: false, error: { code: 'invalid_args', message: `Invalid upload: ${e.message}` } });
    else {
      const failure = sink.failure(e);
      sendJson(res, failure.ok === false && failure.error.code === 'too_large' ? 413 : 200, failure);
    }
    return discardRest(req, DISCARD_CAP);
  }
  const staging = writer as StagingWriter | null;
  if (!staging || !reader.sawData) {
    await staging?.discard();
    const message = reader.sawData
      ? `The uploaded file is empty: there is nothing to ${method === 'knowledge.ingest' ? 'ingest' : 'import'}.`
      : `${method} over HTTP takes {${method === 'knowledge.ingest' ? 'persona, ' : ''}name, dataBase64}: the file’s contents, base64-encoded.`;
    sendJson(res, 200, { ok: false, error: { code: reader.sawData ? (method === 'knowledge.ingest' ? 'ingest_error' : 'import_error') : 'invalid_args', message } });
    return;
  }
  sendJson(res, 200, await sink.ingest(reader.fields, await staging.finish()));
}
