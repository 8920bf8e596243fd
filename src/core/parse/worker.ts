// The parse worker: turns files into text, off the core thread (a 300-page PDF
// takes seconds of CPU). It serves one request at a time and stays alive
// between them while the core keeps it (see parser.ts), so pdfjs loads once.
import { parentPort } from 'node:worker_threads';
import { isAppError } from '../../shared/errors';
import { parseDocx } from './docx';
import { parsePdf } from './pdf';
import { openRegularFile } from './regular-file';
import { parseText } from './text';
import type { ParseFailure, ParseMessage, ParseRequest } from './types';

const port = parentPort;
if (!port) throw new Error('parse worker must run in a worker thread');

function failureOf(e: unknown): ParseFailure | 'internal' {
  if (isAppError(e) && typeof e.details === 'object' && e.details !== null && 'failure' in e.details) {
    return (e.details as { failure: ParseFailure }).failure;
  }
  return 'internal';
}

port.on('message', async (req: ParseRequest) => {
  const post = (m: ParseMessage) => port.postMessage(m);
  const { id } = req;
  try {
    // Checked again here: the file may have been replaced since the job looked at it.
    const handle = await openRegularFile(req.path, req.name);
    const bytes = new Uint8Array(await handle.readFile().finally(() => handle.close()));
    const doc =
      req.kind === 'pdf'
        ? await parsePdf(bytes, req.name, (page, pages) => post({ id, type: 'progress', page, pages }))
        : req.kind === 'docx'
          ? await parseDocx(bytes, req.name)
          : parseText(bytes, req.kind, req.name);
    post({ id, type: 'done', doc });
  } catch (e) {
    post({ id, type: 'error', failure: failureOf(e), message: e instanceof Error ? e.message : String(e) });
  }
});
