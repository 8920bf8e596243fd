import { describe, expect, it } from 'vitest';
import { excerpt, markdownExcerpt, matchExcerpt } from './excerpt';

const para = (n: number) => `On page 3 the archivist catalogued item ${n}, a brass telescope of unusual make. Winter light fell.`;

describe('excerpt', () => {
  it('centres on the rare query word, not the words every line repeats, and marks the matches', () => {
    const content = Array.from({ length: 30 }, (_, i) => para(300 + i)).join('\n\n');
    const { parts, clipped } = excerpt(content, 'archivist catalogued item 317 telescope');
    const text = parts.map((p) => p.text).join('');
    expect(clipped).toBe(true);
    expect(text).toContain('item 317,');
    expect(parts.filter((p) => p.match).map((p) => p.text)).toContain('317');
    expect(text.length).toBeLessThanOrEqual(560);
  });

  it('shows short content whole, and matches whole words only', () => {
    const { parts, clipped } = excerpt('Cats and category theory.', 'cat theory');
    expect(clipped).toBe(false);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['theory']);
    expect(parts.map((p) => p.text).join('')).toBe('Cats and category theory.');
  });
});

describe('excerpt window', () => {
  it('keeps the best match inside what it shows, wherever it sits in the window', () => {
    for (let n = 300; n < 330; n++) {
      const content = Array.from({ length: 30 }, (_, i) => para(300 + i)).join('\n\n');
      const text = excerpt(content, `archivist catalogued item ${n} brass telescope of unusual make`).parts.map((p) => p.text).join('');
      expect(text).toContain(`item ${n},`);
    }
  });
});

describe('excerpt highlighting', () => {
  it('does not highlight stop words of the question, only the words that carry it', () => {
    const { parts } = excerpt('The boiler is serviced every spring by the landlord.', 'when is the boiler serviced');
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['boiler', 'serviced']);
  });
});

describe('matchExcerpt', () => {
  const content = Array.from({ length: 20 }, (_, i) => `Sentence ${i} talks about something else entirely.`).join(' ');
  const start = content.indexOf('Sentence 9 ');
  const end = content.indexOf('Sentence 10 ') - 1;

  it('shows the matched sentences with context on both sides, cut at spaces', () => {
    const m = matchExcerpt(content, { start, end }, 60)!;
    expect(m.sentence).toBe('Sentence 9 talks about something else entirely.');
    expect(m.clipped).toBe(true);
    expect(content).toContain(`${m.before}${m.sentence}${m.after}`);
    expect(m.before.length).toBeLessThanOrEqual(60);
    expect(m.before.startsWith(' ')).toBe(false);
    expect(m.after.length).toBeLessThanOrEqual(61);
  });

  it('returns null without a usable span (text-only recall, a span outside the content)', () => {
    expect(matchExcerpt(content, undefined)).toBeNull();
    expect(matchExcerpt(content, { page: 3 } as { start?: number; end?: number })).toBeNull();
    expect(matchExcerpt(content, { start: 10, end: content.length + 5 })).toBeNull();
    expect(matchExcerpt('short', { start: 0, end: 5 })).toEqual({ before: '', sentence: 'short', after: '', clipped: false });
  });
});

describe('markdownExcerpt', () => {
  const doc = [
    '# Ferns',
    '',
    'Ferns like shade and **damp soil**. See [the guide](https://example.org/ferns).',
    '',
    '- Mist them weekly.',
    '- Repot in spring.',
  ].join('\n');
  const OPEN = '\uE000';
  const CLOSE = '\uE001';

  it('keeps the Markdown as written and marks the matched sentence, even across bold text', () => {
    const start = doc.indexOf('Ferns like');
    const end = doc.indexOf('. See') + 1;
    const { text, clipped } = markdownExcerpt(doc, 'soil', { start, end });
    expect(clipped).toBe(false);
    expect(text).toBe(doc.replace('Ferns like shade and **damp soil**.', `${OPEN}Ferns like shade and **damp soil**.${CLOSE}`));
  });

  it('opens a mark after a list item’s or heading’s syntax, so the line keeps its meaning', () => {
    const start = doc.indexOf('- Mist');
    const { text } = markdownExcerpt(doc, '', { start, end: doc.indexOf('weekly.') + 7 });
    expect(text).toContain(`- ${OPEN}Mist them weekly.${CLOSE}`);
    expect(markdownExcerpt(doc, '', { start: 0, end: 7 }).text.startsWith(`# ${OPEN}Ferns${CLOSE}`)).toBe(true);
  });

  it('without a matched sentence, marks the query words; long documents are cut at whole lines', () => {
    const long = [...Array.from({ length: 40 }, (_, i) => `Line ${i} about nothing much.`), 'The **repotting** season is spring.', ...Array.from({ length: 40 }, (_, i) => `Tail ${i}.`)].join('\n');
    const { text, clipped } = markdownExcerpt(long, 'repotting', undefined, { radius: 100 });
    expect(clipped).toBe(true);
    expect(text).toContain(`The **${OPEN}repotting${CLOSE}** season is spring.`);
    expect(text.startsWith('Line ')).toBe(true);
    expect(text.length).toBeLessThan(400);
  });

  it('a document’s own private-use characters cannot open a mark', () => {
    expect(markdownExcerpt(`a${OPEN}b${CLOSE}c`, '', undefined).text).toBe('a\uFFFDb\uFFFDc');
  });
});
