// PDFs for tests, the e2e spec and the bench, generated on the spot (pdf-lib).
import { createDeflate } from 'node:zlib';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/)) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/** A text PDF: `pages[i]` holds the paragraphs of page i + 1 (WinAnsi text only). */
export async function makeTextPdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const paragraphs of pages) {
    const page = doc.addPage([612, 792]);
    let y = 740;
    for (const para of paragraphs) {
      for (const line of wrap(para, 95)) {
        if (y < 40) break;
        page.drawText(line, { x: 50, y, size: 10, font });
        y -= 13;
      }
      y -= 13; // blank line between paragraphs
    }
  }
  return doc.save();
}

/** A sentence that identifies its page and paragraph, for searching. */
export function knownSentence(page: number, para: number): string {
  return `On page ${page} the archivist catalogued item ${page * 100 + para}, a brass telescope of unusual make.`;
}

/**
 * `n` pages of varied prose, each paragraph with a known sentence in it;
 * `firstPage` numbers the sentences from elsewhere, for a second, different book.
 */
export async function makeBookPdf(n: number, parasPerPage = 6, firstPage = 1): Promise<Uint8Array> {
  const filler =
    'Winter light fell across the reading room while the clerks compared ledgers, argued about dates, and copied marginal notes into fresh volumes.';
  return makeTextPdf(
    Array.from({ length: n }, (_, p) =>
      Array.from({ length: parasPerPage }, (_, i) => `${knownSentence(p + firstPage, i)} ${filler} Paragraph ${i} of page ${p + firstPage} ends here.`),
    ),
  );
}

/** Pages with drawn shapes only: what a scan without OCR looks like to a text extractor. */
export async function makeShapesPdf(n: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < n; i++) {
    const page = doc.addPage([612, 792]);
    page.drawRectangle({ x: 50, y: 50 + i * 10, width: 300, height: 200, color: rgb(0.2, 0.4, 0.6) });
    page.drawCircle({ x: 300, y: 500, size: 80, borderColor: rgb(0, 0, 0), borderWidth: 2 });
  }
  return doc.save();
}

/**
 * A minimal PDF using the standard security handler (RC4, revision 2) whose
 * user password is not empty, written by hand because pdf-lib cannot encrypt.
 * The /O and /U entries are arbitrary, so no empty password opens it: a
 * reader must ask for one (pdfjs: PasswordException).
 */
export function makeEncryptedPdf(): Uint8Array {
  const hex32 = (seed: number) =>
    Array.from({ length: 32 }, (_, i) => ((seed * 31 + i * 17) & 0xff).toString(16).padStart(2, '0')).join('');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${hex32(7)}> /U <${hex32(13)}> /P -44 >>`,
    '<< /Length 18 >>\nstream\n\x8a\x13\x07\xf1\x02\x99\x10\x55\x21\x6e\x3c\x0b\x41\x70\x2d\x19\x88\x04\nendstream',
  ];
  const id = hex32(3).slice(0, 32);
  return handWrittenPdf(objects, `/Encrypt 4 0 R /ID [<${id}> <${id}>]`, '%\xe2\xe3\xcf\xd3\n');
}

/**
 * A one-page PDF whose text is typeset with the fi and fl ligature glyphs, as
 * typesetting programs do: Helvetica in Adobe's StandardEncoding, where byte
 * 0xAE is the glyph "fi" and 0xAF "fl". Written by hand because pdf-lib's
 * standard fonts use WinAnsiEncoding, which has no ligatures.
 */
export function makeLigaturePdf(line: string): Uint8Array {
  const text = line.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 12 Tf 50 700 Td (${text}) Tj ET`;
  return handWrittenPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /StandardEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  ]);
}

/**
 * A one-page PDF whose content stream is a line of text followed by `mib` MiB
 * of spaces, Flate-compressed: ~1 kB of file a MiB, so 1 MB of file inflates
 * to 1 GiB (a decompression bomb). Compressed as a stream, never held whole.
 */
export async function makeInflatingPdf(mib: number): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  deflate.write('BT /F1 12 Tf 50 700 Td (A page of text) Tj ET\n');
  const block = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < mib; i++) if (!deflate.write(block)) await new Promise((r) => deflate.once('drain', r));
  deflate.end();
  await done;
  const data = Buffer.concat(parts).toString('latin1');
  return handWrittenPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n${data}\nendstream`,
  ]);
}

/** Numbered objects (1 is the catalog), their cross-reference table and trailer, as latin1 bytes. */
function handWrittenPdf(objects: string[], trailerExtra = '', afterHeader = ''): Uint8Array {
  let out = `%PDF-1.4\n${afterHeader}`;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** Starts like a PDF, then nothing a reader can use. */
export function makeCorruptPdf(): Uint8Array {
  const junk = Array.from({ length: 4000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join('');
  return new Uint8Array(Buffer.from(`%PDF-1.7\n${junk}\n%%EOF\n`, 'latin1'));
}
