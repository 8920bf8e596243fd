import { describe, expect, it } from 'vitest';
import { type Chunk, chunkDocument, DEFAULT_CHUNKING } from './chunk';

const { size, overlap } = DEFAULT_CHUNKING;

function sentence(i: number): string {
  return `Sentence number ${i} talks about the lighthouse keeper and his seventeen cats.`;
}

/** Longest k ≤ overlap such that b starts with the last k characters of a. */
function sharedOverlap(a: string, b: string): number {
  for (let k = Math.min(overlap, a.length, b.length); k > 0; k--) {
    if (a.endsWith(b.slice(0, k))) return k;
  }
  return 0;
}

function expectWellFormed(chunks: Chunk[]) {
  for (const c of chunks) {
    expect(c.content.trim()).toBe(c.content);
    expect(c.content.length).toBeGreaterThan(0);
    expect(c.content.length).toBeLessThanOrEqual(size);
  }
  for (let i = 1; i < chunks.length; i++) {
    // Each chunk repeats a real piece of the previous chunk's end (shorter than the overlap when it
    // starts at a sentence or paragraph, but never less than a fifth of it).
    expect(sharedOverlap(chunks[i - 1]!.content, chunks[i]!.content)).toBeGreaterThan(overlap / 5);
  }
}

/** Removes the overlaps and checks the document's words come out in order, none lost. */
function expectAllWordsInOrder(source: string, chunks: Chunk[]) {
  let rebuilt = chunks[0]?.content ?? '';
  for (let i = 1; i < chunks.length; i++) {
    const k = sharedOverlap(chunks[i - 1]!.content, chunks[i]!.content);
    rebuilt += chunks[i]!.content.slice(k);
  }
  const words = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');
  expect(words(rebuilt)).toBe(words(source));
}

describe('chunkDocument', () => {
  it('keeps a short document in one chunk, unchanged', () => {
    const chunks = chunkDocument([{ text: 'Hello.\n\nSecond paragraph.' }]);
    expect(chunks).toEqual([{ content: 'Hello.\n\nSecond paragraph.' }]);
  });

  it('returns nothing for empty and whitespace-only text', () => {
    expect(chunkDocument([{ text: '' }])).toEqual([]);
    expect(chunkDocument([{ text: ' \n\n\t\r\n  \n' }])).toEqual([]);
  });

  it('aligns chunks on paragraphs, in order, with the overlap', () => {
    const paras = Array.from({ length: 60 }, (_, i) => `${sentence(i)} ${sentence(i + 1000)}`);
    const text = paras.join('\n\n');
    const chunks = chunkDocument([{ text }]);
    expect(chunks.length).toBeGreaterThan(3);
    expectWellFormed(chunks);
    expectAllWordsInOrder(text, chunks);
    for (const c of chunks) {
      // After the carried overlap, a chunk starts a paragraph and ends one.
      const body = c.content.slice(c.content.indexOf('\n\n') + 2);
      expect(paras.some((p) => body.startsWith(p))).toBe(true);
      expect(paras.some((p) => c.content.endsWith(p))).toBe(true);
    }
    // All but the last are nearly full.
    for (const c of chunks.slice(0, -1)) expect(c.content.length).toBeGreaterThan(size * 0.8);
  });

  it('splits one giant paragraph on sentence boundaries', () => {
    const text = Array.from({ length: 300 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkDocument([{ text }]);
    expect(chunks.length).toBeGreaterThan(7);
    expectWellFormed(chunks);
    expectAllWordsInOrder(text, chunks);
    for (const c of chunks) expect(c.content.endsWith('cats.')).toBe(true);
  });

  it('splits a sentence longer than a chunk on word boundaries, then hard-splits a giant word', () => {
    const words = Array.from({ length: 1500 }, (_, i) => `word${i}`).join(' ');
    const giant = 'x'.repeat(7000);
    const text = `${words} ${giant} tail`;
    const chunks = chunkDocument([{ text }]);
    expectWellFormed(chunks);
    // Word splits never cut a word: every chunk's words are whole words of the source.
    const wordSet = new Set(words.split(' '));
    for (const c of chunks.filter((c) => !c.content.includes('x'))) {
      const ws = c.content.split(/\s+/);
      for (const w of ws.slice(1)) expect(wordSet.has(w)).toBe(true);
    }
    expect(chunks.map((c) => c.content).join('').replace(/[^x]/g, '').length).toBeGreaterThanOrEqual(7000);
    expect(chunks.at(-1)!.content.endsWith('tail')).toBe(true);
  });

  it('normalises CRLF and lone CR line endings', () => {
    const text = 'First line\r\nsecond line\r\n\r\nNext paragraph\rwith CR';
    const [c] = chunkDocument([{ text }]);
    expect(c!.content).toBe('First line\nsecond line\n\nNext paragraph\nwith CR');
    expect(c!.content).not.toContain('\r');
  });

  it('packs many tiny paragraphs into few chunks', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `p${i}`).join('\r\n\r\n');
    const chunks = chunkDocument([{ text }]);
    expect(chunks.length).toBeLessThan(20);
    expectWellFormed(chunks);
    expectAllWordsInOrder(text, chunks);
  });

  it('handles CJK text without spaces and non-Latin scripts', () => {
    const zh = '这是一个关于灯塔看守人和他的十七只猫的句子。'.repeat(400); // 22 chars × 400
    const ru = 'Смотритель маяка кормит семнадцать кошек каждое утро. '.repeat(100);
    const chunks = chunkDocument([{ text: `${zh}\n\n${ru}` }]);
    expectWellFormed(chunks);
    for (const c of chunks.filter((c) => /[\u4e00-\u9fff]/.test(c.content) && !/[а-я]/.test(c.content))) {
      // Split on the Chinese full stop, not in the middle of a sentence.
      expect(c.content.endsWith('。')).toBe(true);
    }
    const allZh = chunks.map((c) => c.content).join('');
    expect(allZh).toContain('猫的句子。');
    expect(chunks.some((c) => c.content.includes('Смотритель маяка'))).toBe(true);
  });

  it('keeps surrogate pairs whole when hard-splitting', () => {
    const text = '😀'.repeat(4000);
    const chunks = chunkDocument([{ text }]);
    expectWellFormed(chunks);
    for (const c of chunks) expect(c.content).toMatch(/^(?:😀)+$/u);
  });

  it('fills a chunk exactly to the limit and starts a new one one character later', () => {
    // Two paragraphs whose joined length is exactly `size`.
    const a = 'a'.repeat(1000);
    const b = 'b'.repeat(size - a.length - 2);
    expect(chunkDocument([{ text: `${a}\n\n${b}` }])).toHaveLength(1);
    const chunks = chunkDocument([{ text: `${a}\n\n${b}b` }]);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]!.content).toBe(a);
    expect(chunks[1]!.content.endsWith(`${b}b`)).toBe(true);
    expect(chunks[1]!.content.length).toBeLessThanOrEqual(size);
  });

  it('carries page numbers of the paragraphs each chunk holds', () => {
    const pages = Array.from({ length: 10 }, (_, i) => ({
      page: i + 1,
      text: Array.from({ length: 12 }, (_, j) => `Page ${i + 1} paragraph ${j}. ${sentence(j)}`).join('\n\n'),
    }));
    const chunks = chunkDocument(pages);
    expectWellFormed(chunks);
    for (const c of chunks) {
      const seen = [...c.content.matchAll(/Page (\d+) paragraph/g)].map((m) => Number(m[1]));
      const firstFull = Math.min(...seen);
      expect(c.pageFrom).toBeLessThanOrEqual(firstFull);
      expect(c.pageFrom).toBeGreaterThanOrEqual(firstFull - 1);
      expect(c.pageTo).toBe(Math.max(...seen));
    }
    expect(chunks[0]!.pageFrom).toBe(1);
    expect(chunks.at(-1)!.pageTo).toBe(10);
    const text = chunkDocument([{ text: 'no pages' }]);
    expect(text[0]).not.toHaveProperty('pageFrom');
  });

  it('drops a byte-order mark', () => {
    expect(chunkDocument([{ text: '\uFEFFHello' }])[0]!.content).toBe('Hello');
  });

  it('starts every overlap at a sentence, never inside a word or a command', () => {
    // Sentences of varied length, so a fixed-length tail would land mid-word ("-W 0 can be used…" without its "hdparm").
    const para = (i: number) =>
      `Run hdparm -W 0 /dev/sd${i} to turn the write cache off. ` +
      `Disk number ${i} then reports its cache state ${'honestly and slowly '.repeat(1 + (i % 4))}to the kernel. ` +
      `Check it again after reboot ${i}.`;
    const text = Array.from({ length: 40 }, (_, i) => para(i)).join(' ');
    const chunks = chunkDocument([{ text }]);
    expect(chunks.length).toBeGreaterThan(2);
    expectWellFormed(chunks);
    expectAllWordsInOrder(text, chunks);
    for (const c of chunks.slice(1)) expect(c.content).toMatch(/^(Run hdparm|Disk number|Check it again)/);
  });

  it('falls back to a word boundary when no sentence starts in the overlap', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkDocument([{ text: words }]);
    for (const c of chunks.slice(1)) expect(words.split(' ')).toContain(c.content.split(' ')[0]);
  });

  it('keeps a heading with the section it opens and names the nearest heading on each chunk', () => {
    const body = (n: number) => Array.from({ length: 6 }, (_, i) => `${sentence(n * 10 + i)} ${sentence(n * 10 + i + 500)}`).join('\n\n');
    const sections = Array.from({ length: 8 }, (_, n) => `${n + 1}.2. Section About Topic ${n + 1}\n\n${body(n)}`);
    const chunks = chunkDocument([{ text: sections.join('\n\n') }]);
    expectWellFormed(chunks);
    const isHeadingLine = (l: string) => /^\d+\.2\. Section About Topic \d+$/.test(l);
    chunks.forEach((c, i) => {
      // A heading is never the last thing in a chunk: it moved on with its section.
      const paras = c.content.split('\n\n');
      expect(isHeadingLine(paras.at(-1)!)).toBe(false);
      // The chunk's heading is the one its own text (after the carried overlap) sits under.
      const fresh = paras.find((p) => i === 0 || !chunks[i - 1]!.content.includes(p))!;
      const n = isHeadingLine(fresh) ? Number(fresh.split('.')[0]) : Math.floor(Number(/^Sentence number (\d+)/.exec(fresh)![1]) / 10) + 1;
      expect(c.heading).toBe(`${n}.2. Section About Topic ${n}`);
    });
    // Every heading is followed in its chunk by its section's first paragraph.
    for (let n = 1; n <= 8; n++) expect(chunks.some((c) => c.content.includes(`Topic ${n}\n\n${sentence((n - 1) * 10)}`))).toBe(true);
  });
});

