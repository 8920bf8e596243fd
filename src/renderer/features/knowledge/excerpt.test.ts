import { describe, expect, it } from 'vitest';
import { excerpt } from './excerpt';

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
