import { describe, expect, it } from 'vitest';
import { isHeading } from './headings';
import { chunkWindows, sentenceSpans, WINDOW_CHARS } from './windows';

describe('sentence windows', () => {
  it('cuts a chunk into runs of whole sentences, side by side', () => {
    const text = Array.from({ length: 24 }, (_, i) => `Sentence ${i} is about the harbour and its ${i} boats.`).join(' ');
    const windows = chunkWindows({ content: text }, 'harbour notes');
    expect(windows.length).toBeGreaterThan(2);
    for (const w of windows) {
      const shown = text.slice(w.start, w.end);
      expect(shown.length).toBeLessThanOrEqual(WINDOW_CHARS);
      expect(shown).toMatch(/^Sentence \d+ .*boats\.$/);
      // What is embedded: the title, then the sentences.
      expect(w.key).toBe(`harbour notes\n\n${shown}`);
    }
    // Side by side: each sentence is read by the model once.
    for (let i = 1; i < windows.length; i++) expect(windows[i]!.start).toBeGreaterThan(windows[i - 1]!.end);
    for (let s = 0; s < 24; s++) expect(windows.filter((w) => text.slice(w.start, w.end).includes(`Sentence ${s} `))).toHaveLength(1);
    // Together they cover the whole chunk.
    expect(windows[0]!.start).toBe(0);
    expect(windows.at(-1)!.end).toBe(text.length);
  });

  it('cuts a sentence longer than a window at spaces', () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const spans = sentenceSpans(long);
    expect(spans.length).toBeGreaterThan(3);
    for (const [a, b] of spans) {
      expect(b - a).toBeLessThanOrEqual(WINDOW_CHARS);
      expect(long.slice(a, b)).toMatch(/^word\d+( word\d+)*$/);
    }
  });

  it('gives each window the page it starts on and the heading above it', () => {
    const content = 'Intro text on page one.\n\n2.1. Replication Slots\n\nSlots keep WAL until every standby has it.';
    const at = content.indexOf('2.1.');
    const windows = chunkWindows({ content, pageFrom: 1, pageTo: 2, pageMarks: [{ at: 0, page: 1 }, { at, page: 2 }], heading: '2. Setup' }, 'ha', {
      maxChars: 60,
    });
    const slots = windows.find((w) => content.slice(w.start, w.end).startsWith('Slots keep'))!;
    expect(slots.page).toBe(2);
    expect(slots.key).toBe('ha\n2.1. Replication Slots\n\nSlots keep WAL until every standby has it.');
    const intro = windows.find((w) => content.slice(w.start, w.end).startsWith('Intro'))!;
    expect(intro.page).toBe(1);
    expect(intro.key).toBe('ha\n2. Setup\n\nIntro text on page one.');
  });
});

describe('isHeading', () => {
  it('knows numbered, Markdown and title-like headings from sentences, commands and table rows', () => {
    for (const h of ['14.1. Using EXPLAIN', '# Notes', '## Setup steps', '27.2.5. Synchronous Replication', 'Chapter 4: Rules', 'Row Security Policies']) {
      expect(isHeading(h)).toBe(true);
    }
    for (const p of [
      'The planner chooses a plan.',
      'EXPLAIN SELECT * FROM tenk1;',
      '│ name │ value │',
      '- a list item',
      'this is lower case text without a full stop',
      'Two lines\nof text',
    ]) {
      expect(isHeading(p)).toBe(false);
    }
  });
});
