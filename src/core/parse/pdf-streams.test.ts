import { describe, expect, it } from 'vitest';
import { makeBookPdf, makeInflatingPdf } from '../testing/test-pdfs';
import { parsePdf } from './pdf';
import { pdfInflatedBytes } from './pdf-streams';

// A PDF whose page data inflates far past any document's text is refused
// before pdfjs inflates it in memory (docs/security.md). The bound is a
// parameter: a 64 MiB stream against an 8 MiB bound stands for 1 GiB against
// the real 256 MiB (bench:faults runs the real one).

describe('a PDF that inflates far past its size', () => {
  it('is refused before pdfjs reads it, with a message naming the file', async () => {
    const bomb = await makeInflatingPdf(64);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const pages: number[] = [];
    await expect(parsePdf(bomb, 'bomb.pdf', (p) => pages.push(p), { maxInflatedBytes: 8 * 1024 * 1024 })).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringMatching(/^"bomb\.pdf" unpacks to more than 8 MiB of page data/),
    });
    expect(pages).toEqual([]); // pdfjs never got to a page
  });

  it('counts what a real document inflates to and reads it as before', async () => {
    const book = await makeBookPdf(5);
    const size = await pdfInflatedBytes(book, 8 * 1024 * 1024);
    expect(size).toBeGreaterThan(1000);
    const doc = await parsePdf(book, 'book.pdf', () => undefined, { maxInflatedBytes: 8 * 1024 * 1024 });
    expect(doc.pages).toBe(5);
    // The same bomb below the bound is read: the bound, not the shape of the file, refuses it.
    const small = await makeInflatingPdf(1);
    expect((await parsePdf(small, 'small.pdf', () => undefined, { maxInflatedBytes: 8 * 1024 * 1024 })).segments[0]?.text).toContain('A page of text');
  });
});
