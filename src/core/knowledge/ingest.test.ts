import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../shared/errors';
import { makeBookPdf, makeCorruptPdf, makeEncryptedPdf, makeShapesPdf, makeTextPdf, knownSentence } from '../testing/test-pdfs';
import { makeDocx } from '../testing/test-docx';
import { uploadsDir } from './staging';
import { chunksOf, ingestFixture, type IngestFixture } from '../testing/knowledge-fixture';

let f: IngestFixture;
let dir: string;

beforeAll(async () => {
  f = await ingestFixture();
  dir = mkdtempSync(join(tmpdir(), 'hearth-ingest-'));
});
afterAll(async () => {
  await f?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, bytes: Uint8Array | string): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

async function ingestPath(path: string, persona = 'main') {
  const { jobId, source } = await f.core.call('knowledge.ingest', { persona, path });
  return { source, job: await f.settled(jobId) };
}

async function ingestUpload(name: string, bytes: Uint8Array | string, persona = 'main') {
  const dataBase64 = Buffer.from(bytes).toString('base64');
  const { jobId, source } = await f.core.call('knowledge.ingest', { persona, name, dataBase64 });
  return { source, job: await f.settled(jobId) };
}

async function callError(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected the call to fail');
}

describe('knowledge ingestion of PDFs', () => {
  it('ingests a multi-page PDF with page numbers on its chunks and reports progress', async () => {
    const path = file('atlas.pdf', await makeBookPdf(12));
    const { source, job } = await ingestPath(path);
    expect(job.state).toBe('completed');
    expect(source).toBe('atlas.pdf');

    const [listed] = (await f.core.call('knowledge.listSources', { persona: 'main' })).filter((s) => s.source === source);
    expect(listed).toMatchObject({ kind: 'pdf', pages: 12 });
    const chunks = await chunksOf(f.core, 'main', source);
    expect(chunks.length).toBe(listed!.chunks);
    expect(chunks.map((c) => c.chunk_index)).toEqual(chunks.map((_, i) => i));
    // Every known sentence sits in a chunk whose page range covers its page.
    for (const page of [1, 7, 12]) {
      const s = knownSentence(page, 3);
      const holders = chunks.filter((c) => c.content.replace(/\s+/g, ' ').includes(s));
      expect(holders.length).toBeGreaterThan(0);
      for (const c of holders) {
        expect(c.page_from).toBeLessThanOrEqual(page);
        expect(c.page_to).toBeGreaterThanOrEqual(page);
      }
    }

    const progress = f.events
      .filter((e) => e.name === 'ingest.progress')
      .map((e) => e.payload as { jobId: string; progress: { stage: string; label?: string } })
      .filter((p) => p.jobId === job.id)
      .map((p) => p.progress.label ?? p.progress.stage);
    expect(progress).toContain('parsing page 12/12');
    expect(progress.at(-1)).toBe(`${chunks.length} chunks written`);

    // Searchable by text at once.
    const hits = await f.core.call('recall', { persona: 'main', query: 'item 703 brass telescope', kinds: ['knowledge'] });
    expect(hits[0]?.tag).toMatch(/^\[knowledge atlas\.pdf#\d+\]$/);
    expect(hits[0]?.content).toContain('item 703');
  });

  it('re-ingesting a changed file leaves exactly the new chunks', async () => {
    const path = file('notes.pdf', await makeTextPdf([['Version one talks about otters.'], ['Otters again, page two.']]));
    await ingestPath(path);
    expect((await chunksOf(f.core, 'main', 'notes.pdf')).map((c) => c.content).join(' ')).toContain('otters');

    writeFileSync(path, await makeTextPdf([['Version two is about herons only.']]));
    const { job } = await ingestPath(path);
    expect(job.state).toBe('completed');
    const after = await chunksOf(f.core, 'main', 'notes.pdf');
    expect(after.map((c) => c.content)).toEqual(['Version two is about herons only.']);
    expect(after[0]).toMatchObject({ chunk_index: 0, page_from: 1, page_to: 1 });
    const sources = await f.core.call('knowledge.listSources', { persona: 'main' });
    expect(sources.filter((s) => s.source === 'notes.pdf')).toHaveLength(1);
  });

  it.each([
    ['corrupt', () => makeCorruptPdf(), /damaged or unreadable PDF/],
    ['encrypted', () => makeEncryptedPdf(), /password-protected/],
    ['scanned', () => makeShapesPdf(3), /scanned PDF, no text layer/],
  ])('a %s PDF fails at once with a clear error and leaves the previous version intact', async (_, make, message) => {
    const path = file('manual.pdf', await makeTextPdf([['The manual says: turn the valve clockwise.']]));
    await ingestPath(path);
    const before = await chunksOf(f.core, 'main', 'manual.pdf');
    expect(before).toHaveLength(1);

    writeFileSync(path, await make());
    const { job } = await ingestPath(path);
    expect(job.state).toBe('discarded');
    expect(job.attempt).toBe(1); // not retried: no retry can fix the file
    expect(job.lastError).toMatch(message);
    expect(await chunksOf(f.core, 'main', 'manual.pdf')).toEqual(before);
  });
});

describe('knowledge ingestion of Word documents', () => {
  it('ingests an uploaded .docx paragraph by paragraph, with no pages, and removes the staged copy', async () => {
    const docx = makeDocx(['# Allotment plan', 'The beans go along the north fence.', 'Water the courgettes every second evening & feed them weekly.']);
    const { source, job } = await ingestUpload('allotment.docx', docx);
    expect(job.state).toBe('completed');
    const chunks = await chunksOf(f.core, 'main', source);
    expect(chunks.map((c) => c.content).join('\n\n')).toBe(
      'Allotment plan\n\nThe beans go along the north fence.\n\nWater the courgettes every second evening & feed them weekly.',
    );
    expect(chunks.every((c) => c.page_from === null && c.page_to === null)).toBe(true);
    const [listed] = (await f.core.call('knowledge.listSources', { persona: 'main' })).filter((s) => s.source === source);
    expect(listed).toMatchObject({ kind: 'docx', pages: null, bytes: docx.length });
    expect(readdirSync(uploadsDir(f.core.ctx))).toEqual([]);
  });

  it('a damaged .docx fails with a clear message and leaves the version ingested before as it was', async () => {
    const path = file('minutes.docx', makeDocx(['The committee meets on the first Tuesday.']));
    expect((await ingestPath(path)).job.state).toBe('completed');
    const good = makeDocx(['Replaced text that must not land.']);
    // Cut in half: the ZIP's directory at the end is gone.
    writeFileSync(path, good.subarray(0, good.length >> 1));
    const { job } = await ingestPath(path);
    expect(job.state).toBe('discarded');
    expect(job.lastError).toMatch(/"minutes\.docx" is not a readable Word document .* save it again as \.docx/);
    expect((await chunksOf(f.core, 'main', 'minutes.docx')).map((c) => c.content)).toEqual(['The committee meets on the first Tuesday.']);
  });

  it('a password-protected .docx is refused at once, saying how to open it', async () => {
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    const err = await callError(f.core.call('knowledge.ingest', { persona: 'main', path: file('salaries.docx', ole) }));
    expect(err.message).toMatch(/"salaries\.docx" is password-protected .* remove the password/);
    expect(await chunksOf(f.core, 'main', 'salaries.docx')).toEqual([]);
  });
});

describe('knowledge ingestion of text and uploads', () => {
  it('ingests Markdown uploaded as bytes, with a BOM, and removes the staged copy', async () => {
    const md = `\uFEFF# Garden log\r\n\r\nThe tomatoes ripened on the ninth of August.\r\n\r\n- basil\r\n- thyme\r\n`;
    const { source, job } = await ingestUpload('garden.md', md);
    expect(job.state).toBe('completed');
    expect(source).toBe('garden.md');
    const chunks = await chunksOf(f.core, 'main', 'garden.md');
    expect(chunks[0]!.content).toBe('# Garden log\n\nThe tomatoes ripened on the ninth of August.\n\n- basil\n- thyme');
    expect(chunks[0]!.page_from).toBeNull();
    const [listed] = (await f.core.call('knowledge.listSources', { persona: 'main' })).filter((s) => s.source === source);
    expect(listed).toMatchObject({ kind: 'markdown', bytes: Buffer.byteLength(md) });
    expect(readdirSync(uploadsDir(f.core.ctx))).toEqual([]);
  });

  it('ingests plain text from a path', async () => {
    const { job } = await ingestPath(file('list.txt', 'eggs\nmilk\n\nbread'));
    expect(job.state).toBe('completed');
    expect((await chunksOf(f.core, 'main', 'list.txt'))[0]!.content).toBe('eggs\nmilk\n\nbread');
  });

  it('rejects text that is not UTF-8, and removes the staged upload after the failure', async () => {
    const latin1 = Buffer.from('Caf\xe9 cr\xe8me br\xfbl\xe9e', 'latin1');
    const { job } = await ingestUpload('menu.txt', latin1);
    expect(job.state).toBe('discarded');
    expect(job.lastError).toMatch(/not valid UTF-8/);
    expect(await chunksOf(f.core, 'main', 'menu.txt')).toEqual([]);
    expect(readdirSync(uploadsDir(f.core.ctx))).toEqual([]);
  });

  it('refuses to retry an upload whose copy is gone, saying so and keeping the job and its original error', async () => {
    const latin1 = Buffer.from('Cr\xeape au sucre', 'latin1');
    const { job } = await ingestUpload('crepes.txt', latin1);
    expect(job.state).toBe('discarded');
    const err = await callError(f.core.call('jobs.retry', { id: job.id }));
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/“crepes\.txt” is no longer there .* drop it again/);
    const [after] = (await f.core.call('jobs.list', { queue: 'ingest', limit: 500 })).jobs.filter((j) => j.id === job.id);
    expect(after).toMatchObject({ state: 'discarded', attempt: job.attempt, lastError: job.lastError });
    expect(after!.lastError).toMatch(/not valid UTF-8/);
    // A file ingested by path is still there: its retry goes ahead.
    const byPath = await ingestPath(file('notes-latin1.txt', latin1));
    expect(byPath.job.state).toBe('discarded');
    expect(await f.core.call('jobs.retry', { id: byPath.job.id })).toMatchObject({ state: 'available' });
    await f.settled(byPath.job.id);
  });

  it('refuses an oversize file at once, by path and by upload, changing nothing', async () => {
    await f.core.call('settings.set', { maxIngestBytes: 2048 });
    try {
      const big = 'All work and no play. '.repeat(200);
      const byPath = await callError(f.core.call('knowledge.ingest', { persona: 'main', path: file('big.txt', big) }));
      expect(byPath.code).toBe('too_large');
      expect(byPath.message).toMatch(/above the .* limit/);
      const byUpload = await callError(
        f.core.call('knowledge.ingest', { persona: 'main', name: 'big.txt', dataBase64: Buffer.from(big).toString('base64') }),
      );
      expect(byUpload.code).toBe('too_large');
      expect(await chunksOf(f.core, 'main', 'big.txt')).toEqual([]);
    } finally {
      await f.core.call('settings.set', { maxIngestBytes: 100 * 1024 * 1024 });
    }
  });

  it('refuses empty files, unsupported types and missing files with clear errors', async () => {
    const empty = await callError(f.core.call('knowledge.ingest', { persona: 'main', path: file('empty.md', '') }));
    expect(empty.message).toMatch(/is empty/);
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4]);
    const xlsx = await callError(f.core.call('knowledge.ingest', { persona: 'main', path: file('report.xlsx', zip) }));
    expect(xlsx.code).toBe('unsupported_type');
    expect(xlsx.message).toMatch(/ZIP-based file .* Hearth reads PDF, Word \(\.docx\), Markdown/);
    const png = await callError(
      f.core.call('knowledge.ingest', { persona: 'main', name: 'photo.txt', dataBase64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]).toString('base64') }),
    );
    expect(png.message).toMatch(/PNG image/);
    const exe = await callError(f.core.call('knowledge.ingest', { persona: 'main', path: file('tool.exe', 'MZ...') }));
    expect(exe.message).toMatch(/unsupported type \(\.exe\)/);
    const missing = await callError(f.core.call('knowledge.ingest', { persona: 'main', path: join(dir, 'nope.pdf') }));
    expect(missing.code).toBe('not_found');
    const relative = await callError(f.core.call('knowledge.ingest', { persona: 'main', path: 'notes.txt' }));
    expect(relative.code).toBe('invalid_args');
    const ghost = await callError(f.core.call('knowledge.ingest', { persona: 'ghost', path: file('a.txt', 'hi') }));
    expect(ghost.code).toBe('not_found');
  });

  it('a PDF saved with a .txt name is still read as a PDF', async () => {
    const { job } = await ingestPath(file('disguised.txt', await makeTextPdf([['Hidden heron facts.']])));
    expect(job.state).toBe('completed');
    expect((await chunksOf(f.core, 'main', 'disguised.txt'))[0]!.content).toBe('Hidden heron facts.');
  });

  it('queues several files and completes them all', async () => {
    const started = await Promise.all(
      ['a', 'b', 'c'].map((n) => f.core.call('knowledge.ingest', { persona: 'main', path: file(`${n}.md`, `# ${n}\n\nAbout ${n}.`) })),
    );
    const jobs = await Promise.all(started.map((s) => f.settled(s.jobId)));
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
    expect(existsSync(join(dir, 'a.md'))).toBe(true); // the user's own file is never removed
  });

  it('keeps the parse worker for the next file, and ends it when the core closes', async () => {
    const g = await ingestFixture();
    try {
      const first = await g.core.call('knowledge.ingest', { persona: 'main', path: file('one.pdf', await makeBookPdf(3)) });
      expect((await g.settled(first.jobId)).state).toBe('completed');
      expect(g.core.ctx.parser.hasWorker).toBe(true);
      const second = await g.core.call('knowledge.ingest', { persona: 'main', path: file('two.pdf', await makeBookPdf(2, 6, 50)) });
      expect((await g.settled(second.jobId)).state).toBe('completed');
      const hits = await g.core.call('recall', { persona: 'main', query: knownSentence(51, 4), kinds: ['knowledge'] });
      expect(hits[0]?.content.replace(/\s+/g, ' ')).toContain(knownSentence(51, 4));
    } finally {
      await g.dispose();
    }
    expect(g.core.ctx.parser.hasWorker).toBe(false);
  });
});
