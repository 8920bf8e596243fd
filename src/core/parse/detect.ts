import { extname } from 'node:path';
import type { DocumentKind } from './types';
import { parseError } from './errors';

const TEXT_EXTENSIONS: Record<string, DocumentKind> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdown': 'markdown',
  '.txt': 'text',
  '.text': 'text',
};

const ZIP = [0x50, 0x4b, 0x03, 0x04];
// Word saves a password-protected .docx inside an OLE compound file, the old Office container.
const OLE = [0xd0, 0xcf, 0x11, 0xe0];

// Formats people are likely to drop that we do not read, named so the message helps.
const KNOWN_BINARY: { magic: number[]; what: string }[] = [
  { magic: ZIP, what: 'a ZIP-based file (Excel, PowerPoint, EPUB… or a Word document not named .docx)' },
  { magic: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { magic: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { magic: [0x1f, 0x8b], what: 'a gzip archive' },
  { magic: OLE, what: 'an old Office document (.doc, .xls) or a password-protected one' },
  { magic: [0x7b, 0x5c, 0x72, 0x74, 0x66], what: 'an RTF document' },
];

const SUPPORTED = 'Hearth reads PDF, Word (.docx), Markdown (.md) and plain text (.txt) files.';

function startsWith(head: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => head[i] === b);
}

/** PDF readers accept the header anywhere in the first kilobyte. */
export function hasPdfHeader(head: Uint8Array): boolean {
  return Buffer.from(head.subarray(0, 1024)).includes('%PDF-');
}

/**
 * Decides how to read a file from its name and its first bytes (at least
 * 1 KB when the file is that long). Throws a clear error for what we cannot read.
 */
export function detectKind(name: string, head: Uint8Array, size: number): DocumentKind {
  if (size === 0) throw parseError('empty', `"${name}" is empty: there is nothing to ingest.`);
  const ext = extname(name).toLowerCase();
  const isPdf = hasPdfHeader(head);
  if (ext === '.pdf') {
    if (!isPdf) throw parseError('corrupt', `"${name}" is not a readable PDF: it has no PDF header (damaged or not a PDF).`);
    return 'pdf';
  }
  // A PDF saved under another name is still a PDF.
  if (isPdf) return 'pdf';
  if (ext === '.docx') {
    if (startsWith(head, ZIP)) return 'docx';
    if (startsWith(head, OLE)) {
      throw parseError(
        'encrypted',
        `"${name}" is password-protected (or saved in the old Word format). Open it in Word, remove the password under File → Info → Protect Document (or save it as .docx), and add it again.`,
      );
    }
    throw parseError('corrupt', `"${name}" is not a readable Word document: it is not a .docx inside (damaged or renamed).`);
  }
  const binary = KNOWN_BINARY.find((b) => startsWith(head, b.magic));
  if (binary) throw parseError('unsupported_type', `"${name}" is ${binary.what}. ${SUPPORTED}`);
  const kind = TEXT_EXTENSIONS[ext];
  if (!kind) {
    throw parseError('unsupported_type', `"${name}" has an unsupported type (${ext || 'no extension'}). ${SUPPORTED}`);
  }
  return kind;
}
