import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentParser } from './parser';
import { knownSentence, makeBookPdf, makeCorruptPdf } from '../testing/test-pdfs';

let dir: string;
let book: string;
let other: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-parser-'));
  book = join(dir, 'book.pdf');
  writeFileSync(book, await makeBookPdf(30));
  other = join(dir, 'notes.md');
  writeFileSync(other, '# Notes\n\nThe brass telescope is in the attic.\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (doc: { segments: { text: string }[] }) => doc.segments.map((s) => s.text.replace(/\s+/g, ' ')).join('\n');

describe('the document parser', () => {
  it('keeps its worker between files, gives it up when idle, and parses again afterwards', async () => {
    const parser = new DocumentParser({ idleMs: 300 });
    try {
      const first = await parser.parse(book, { kind: 'pdf', name: 'book.pdf' });
      expect(first.pages).toBe(30);
      expect(text(first)).toContain(knownSentence(17, 2));
      expect(parser.hasWorker).toBe(true);
      const second = await parser.parse(other, { kind: 'markdown', name: 'notes.md' });
      expect(text(second)).toContain('brass telescope is in the attic');
      expect(parser.hasWorker).toBe(true);
      await new Promise((r) => setTimeout(r, 600));
      expect(parser.hasWorker).toBe(false);
      const again = await parser.parse(book, { kind: 'pdf', name: 'book.pdf' });
      expect(text(again)).toContain(knownSentence(30, 1));
    } finally {
      await parser.close();
    }
    expect(parser.hasWorker).toBe(false);
  });

  it('parses concurrent requests one after the other, each with its own result and progress', async () => {
    const parser = new DocumentParser();
    try {
      const pagesSeen: number[] = [];
      const [a, b] = await Promise.all([
        parser.parse(book, { kind: 'pdf', name: 'book.pdf', onProgress: (p) => pagesSeen.push(p) }),
        parser.parse(other, { kind: 'markdown', name: 'notes.md' }),
      ]);
      expect(a.pages).toBe(30);
      expect(b.kind).toBe('markdown');
      expect(pagesSeen).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    } finally {
      await parser.close();
    }
  });

  it('a failed or cancelled file ends the worker with a clear error; the next file gets a fresh one', async () => {
    const parser = new DocumentParser();
    try {
      const corrupt = join(dir, 'broken.pdf');
      writeFileSync(corrupt, makeCorruptPdf());
      await expect(parser.parse(corrupt, { kind: 'pdf', name: 'broken.pdf' })).rejects.toMatchObject({
        code: 'ingest_error',
        message: expect.stringContaining('"broken.pdf" is a damaged'),
      });
      expect(parser.hasWorker).toBe(false);

      const ac = new AbortController();
      const cancelled = parser.parse(book, {
        kind: 'pdf',
        name: 'book.pdf',
        signal: ac.signal,
        onProgress: (p) => p === 3 && ac.abort(),
      });
      await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' });
      expect(parser.hasWorker).toBe(false);

      const doc = await parser.parse(book, { kind: 'pdf', name: 'book.pdf' });
      expect(text(doc)).toContain(knownSentence(5, 4));
    } finally {
      await parser.close();
    }
  });

  it('a worker that crashes (out of memory) fails that file with a clear error; the next file gets a fresh worker', async () => {
    // 16 MB is enough to read text but not to load pdfjs: a real crash, as a hostile PDF would cause.
    const parser = new DocumentParser({ maxHeapMb: 16 });
    try {
      await expect(parser.parse(book, { kind: 'pdf', name: 'book.pdf' })).rejects.toMatchObject({
        code: 'ingest_error',
        message: expect.stringMatching(/^The parser crashed on "book\.pdf": .*memory limit/),
      });
      expect(parser.hasWorker).toBe(false);
      const doc = await parser.parse(other, { kind: 'markdown', name: 'notes.md' });
      expect(text(doc)).toContain('brass telescope is in the attic');
    } finally {
      await parser.close();
    }
  });

  it('closing during a parse fails it as cancelled and refuses later files', async () => {
    const parser = new DocumentParser();
    const results: unknown[] = [];
    const started = new Promise<void>((resolve) => {
      void parser
        .parse(book, { kind: 'pdf', name: 'book.pdf', onProgress: () => resolve() })
        .catch((e: unknown) => results.push(e));
    });
    await started;
    await parser.close();
    await new Promise((r) => setTimeout(r, 10));
    expect(results).toMatchObject([{ code: 'cancelled' }]);
    expect(parser.hasWorker).toBe(false);
    await expect(parser.parse(other, { kind: 'markdown', name: 'notes.md' })).rejects.toMatchObject({ code: 'cancelled' });
  });
});
