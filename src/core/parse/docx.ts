// Word documents (.docx) through mammoth (BSD-2-Clause, pure JavaScript: a ZIP reader and an XML
// parser, nothing native), the library most Node projects use to read them. Its raw-text
// output keeps one paragraph per line pair, which the chunker splits on; a .docx has no
// fixed pages, so its citations carry none (as Markdown and text files).
import mammoth from 'mammoth';
import { parseError } from './errors';
import type { ParsedDocument } from './types';

export async function parseDocx(bytes: Uint8Array, name: string): Promise<ParsedDocument> {
  let text: string;
  try {
    text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
  } catch {
    // A broken ZIP, or a ZIP without a Word document inside: mammoth's own words name its internals.
    throw parseError('corrupt', `"${name}" is not a readable Word document (damaged, or not a .docx). Open it in Word or LibreOffice, save it again as .docx and retry.`);
  }
  // Word ends paragraphs with blank lines; runs of them say nothing more.
  text = text.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n');
  if (!text.trim()) throw parseError('no_text', `"${name}" has no text to ingest (it may hold only images or tables of pictures).`);
  return { kind: 'docx', pages: null, segments: [{ text }] };
}
