import { isAppError } from '../../shared/errors';
import { parseError } from './errors';
import { ensureDomMatrix } from './dommatrix';
import { pageText, type PdfTextItem } from './pdf-text';
import { MAX_PDF_INFLATED_BYTES, pdfInflatedBytes } from './pdf-streams';
import type { ParsedDocument } from './types';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

async function loadPdfJs(): Promise<PdfJs> {
  ensureDomMatrix();
  // The module cache makes this a one-time cost per thread: a kept parse worker loads pdfjs once.
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}

function errorName(e: unknown): string {
  return typeof e === 'object' && e !== null && 'name' in e ? String((e as { name: unknown }).name) : '';
}

/** Extracts the text of every page, in reading order, keeping page numbers. */
export async function parsePdf(
  bytes: Uint8Array,
  name: string,
  onPage: (page: number, pages: number) => void,
  limits: { maxInflatedBytes: number } = { maxInflatedBytes: MAX_PDF_INFLATED_BYTES },
): Promise<ParsedDocument> {
  if ((await pdfInflatedBytes(bytes, limits.maxInflatedBytes)) === null) {
    const mib = Math.round(limits.maxInflatedBytes / (1024 * 1024));
    throw parseError('too_large', `"${name}" unpacks to more than ${mib} MiB of page data, far more than any document's text: it is damaged or built to exhaust memory. Nothing was read from it.`);
  }
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: bytes,
    // No fonts, scripts or network: we only want the text layer.
    disableFontFace: true,
    isEvalSupported: false,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (e) {
    await task.destroy();
    if (errorName(e) === 'PasswordException') {
      throw parseError('encrypted', `"${name}" is password-protected (encrypted). Remove the password and try again.`);
    }
    const why = e instanceof Error ? e.message : String(e);
    throw parseError('corrupt', `"${name}" is a damaged or unreadable PDF (${why}).`);
  }
  try {
    const pages = doc.numPages;
    const segments: ParsedDocument['segments'] = [];
    for (let p = 1; p <= pages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      const items: PdfTextItem[] = content.items.flatMap((i) =>
        'str' in i ? [{ str: i.str, transform: i.transform as number[], width: i.width, height: i.height, hasEOL: i.hasEOL }] : [],
      );
      const text = pageText(items);
      page.cleanup();
      if (text.trim()) segments.push({ page: p, text });
      onPage(p, pages);
    }
    if (segments.length === 0) {
      throw parseError(
        'no_text',
        `"${name}" has no extractable text: it looks like a scanned PDF, no text layer. Run it through OCR first.`,
      );
    }
    return { kind: 'pdf', pages, segments };
  } catch (e) {
    if (isAppError(e)) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw parseError('corrupt', `"${name}" is a damaged PDF: reading its pages failed (${why}).`);
  } finally {
    await doc.destroy();
  }
}
