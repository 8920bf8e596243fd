/** The part of a pdfjs TextItem we use. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/**
 * Joins a page's text items into lines and paragraphs. pdfjs returns the items
 * in content-stream order (reading order for nearly every generated PDF); a
 * vertical jump marks a new line, and a gap well above the line height a new
 * paragraph, which the chunker aligns on.
 */
export function pageText(items: PdfTextItem[]): string {
  let out = '';
  let prev: { y: number; endX: number; h: number } | null = null;
  let eol = false;
  for (const item of items) {
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const h = Math.abs(item.height || item.transform[3] || 10);
    if (item.str.length > 0) {
      if (prev) {
        const dy = Math.abs(prev.y - y);
        if (eol || dy > h * 0.5) {
          out = out.replace(/[ \t]+$/, '');
          // A gap of about two lines or more starts a new paragraph.
          out += dy > Math.max(prev.h, h) * 1.8 ? '\n\n' : '\n';
        } else if (x - prev.endX > h * 0.15 && !/\s$/.test(out) && !/^\s/.test(item.str)) {
          out += ' ';
        }
      }
      // Unmapped glyphs can come out as U+0000, which is no text and cannot be stored.
      out += item.str.replace(/\u0000/g, '');
      prev = { y, endX: x + item.width, h };
      eol = false;
    }
    if (item.hasEOL) eol = true;
  }
  return out.trim();
}
