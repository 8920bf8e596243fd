import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentParser } from '../parse/parser';
import { makeLigaturePdf, makeTextPdf } from '../testing/test-pdfs';
import { contextualKey, titleFromName } from './contextual-key';
import { normaliseText } from './normalise';

describe('normaliseText', () => {
  it('folds what a person does not type: curly quotes, dashes, ligatures, full-width letters, no-break spaces', () => {
    expect(normaliseText('The server’s “hot standby” — ﬁle ﬂow – Ｗｉｎ\u00A0now')).toBe('The server\'s "hot standby" - file flow - Win now');
    expect(normaliseText('pg_ctl ‐D ‘data’ −5 ﬀ ﬃ')).toBe("pg_ctl -D 'data' -5 ff ffi");
  });

  it('removes soft hyphens and zero-width spaces, keeps the joiners emoji need', () => {
    expect(normaliseText('recov\u00ADery of a\u200Bcluster')).toBe('recovery of acluster');
    expect(normaliseText('👨\u200D👩\u200D👧 family')).toBe('👨\u200D👩\u200D👧 family');
  });

  it('re-joins words cut by a line-end hyphen only for PDF text, and only before a lower-case letter', () => {
    expect(normaliseText('crash recov-\nery and Wi-\nFi', { pdf: true })).toBe('crash recovery and Wi-\nFi');
    expect(normaliseText('crash recov-\nery', {})).toBe('crash recov-\nery');
  });

  it('drops table borders, collapses spaces, keeps paragraphs', () => {
    expect(normaliseText('│ name │ value │\n├──────┼───────┤\n\n\n\nnext   para')).toBe('name value\n\nnext para');
  });

  it('is idempotent', () => {
    const once = normaliseText('“a” — ﬁne\u00AD  text\n\n\n\nrecov-\nery', { pdf: true });
    expect(normaliseText(once, { pdf: true })).toBe(once);
  });
});

describe('contextualKey', () => {
  it('puts the title and the nearest heading before the normalised text, without repeating them', () => {
    expect(contextualKey('The primary’s WAL is shipped.', { title: 'high availability', heading: '27.2. Log-Shipping Standby Servers' })).toBe(
      "high availability\n27.2. Log-Shipping Standby Servers\n\nThe primary's WAL is shipped.",
    );
    // A chunk that opens with its heading does not get it twice.
    expect(contextualKey('27.2. Setup\n\nText.', { title: 'ha', heading: '27.2. Setup' })).toBe('ha\n\n27.2. Setup\n\nText.');
    expect(contextualKey('Text.', {})).toBe('Text.');
  });

  it('turns a file name into a title', () => {
    expect(titleFromName('high-availability.pdf')).toBe('high availability');
    expect(titleFromName('roles_privileges.md')).toBe('roles privileges');
    expect(titleFromName('notes')).toBe('notes');
  });
});

describe('normaliseText on real pdfjs output', () => {
  let dir: string;
  const parser = new DocumentParser();
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-normalise-'));
  });
  afterAll(async () => {
    await parser.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives back the plain words a person types from a PDF with curly quotes, dashes and a hyphenated line end', async () => {
    // The generated PDF wraps lines at 95 characters: the first line is filled so that "recov-" ends it.
    const lead = 'The standby applies every WAL segment it receives from the primary during continuous';
    const filler = 'x'.repeat(95 - lead.length - ' recov-'.length - 1);
    const para = `${lead} ${filler} recov- ery, so the server’s “hot standby” mode – read-only – keeps answering.`;
    const path = join(dir, 'typography.pdf');
    writeFileSync(path, await makeTextPdf([[para]]));
    const doc = await parser.parse(path, { kind: 'pdf', name: 'typography.pdf' });
    const raw = doc.segments.map((s) => s.text).join('\n\n');
    // What pdf.js hands over: the typographic characters and the split word, as a reader sees them.
    expect(raw).toMatch(/recov-\nery/);
    expect(raw).toMatch(/server[’']s/);
    const clean = normaliseText(raw, { pdf: true });
    expect(clean).toContain('continuous');
    expect(clean).toContain(`${filler} recovery, so the server's "hot standby" mode - read-only - keeps answering.`);
  }, 120_000);

  it('turns ligature glyphs of a typeset PDF into the letters a person types', async () => {
    const path = join(dir, 'ligatures.pdf');
    // "The con<fi>guration <fi>le over<fl>ows" set with ligature glyphs. pdf.js 4 already unfolds the
    // glyphs it knows in its text content; the normaliser (NFKC) is the second line for what it leaves.
    writeFileSync(path, makeLigaturePdf('The con\xAEguration \xAEle over\xAFows when the work\xAFow is \xAEnished.'));
    const doc = await parser.parse(path, { kind: 'pdf', name: 'ligatures.pdf' });
    const raw = doc.segments.map((s) => s.text).join('\n\n');
    const clean = normaliseText(raw, { pdf: true });
    expect(clean).toBe('The configuration file overflows when the workflow is finished.');
  }, 120_000);
});
