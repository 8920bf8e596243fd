import { describe, expect, it } from 'vitest';
import { excerpt, matchExcerpt } from './excerpt';

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
