import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { waitForJobs } from '../testing/wait-jobs';
import { CHUNKS_PER_EMBEDDING_JOB, replaceSource } from './store';

let fx: EmbedFixture;
const chunks = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ content: `${tag} paragraph ${i} `.repeat(3), pageFrom: i + 1, pageTo: i + 1 }));

async function chunkRows(persona: string, source: string) {
  const { rows } = await fx.core.ctx.db.query<{ chunk_index: number; content: string }>(
    'SELECT chunk_index, content FROM knowledge_chunks WHERE persona = $1 AND source = $2 ORDER BY chunk_index',
    [persona, source],
  );
  return rows;
}

beforeAll(async () => {
  fx = await makeEmbedFixture();
  await fx.core.call('personas.create', { name: 'Reader' });
});

afterAll(async () => {
  await fx?.dispose();
});

describe('knowledge store', () => {
  it('replaceSource writes chunks in order with batched embedding jobs; listSources counts them', async () => {
    // What the sources list says each time the document's vectors change: it should fill a few pages at a time.
    const seen: Promise<number>[] = [];
    const stop = fx.core.events.subscribe((name, payload) => {
      if (name !== 'knowledge.changed' || (payload as { source?: string }).source !== 'manual.pdf') return;
      seen.push(fx.core.call('knowledge.listSources', { persona: 'reader' }).then((s) => s[0]?.embedded ?? 0));
    });
    const res = await replaceSource(fx.core.ctx, { persona: 'reader', source: 'manual.pdf', kind: 'pdf', bytes: 12_345, pages: 150, chunks: chunks(150, 'v1') });
    expect(res).toMatchObject({ source: 'manual.pdf', chunks: 150, replaced: 0 });
    expect(res.jobIds).toHaveLength(Math.ceil(150 / CHUNKS_PER_EMBEDDING_JOB));
    const rows = await chunkRows('reader', 'manual.pdf');
    expect(rows.map((r) => r.chunk_index)).toEqual(Array.from({ length: 150 }, (_, i) => i));
    await waitForJobs(fx.core);
    stop();
    const partial = (await Promise.all(seen)).filter((n) => n > 0 && n < 150);
    expect(partial.length).toBeGreaterThan(3);
    const [src] = await fx.core.call('knowledge.listSources', { persona: 'reader' });
    expect(src).toMatchObject({
      source: 'manual.pdf',
      chunks: 150,
      chars: rows.reduce((s, r) => s + r.content.length, 0),
      embedded: 150,
      kind: 'pdf',
      bytes: 12_345,
      pages: 150,
    });
  });

  it('re-ingesting replaces the chunks: the document never duplicates', async () => {
    const res = await replaceSource(fx.core.ctx, { persona: 'reader', source: 'manual.pdf', kind: 'pdf', chunks: chunks(3, 'v2') });
    expect(res).toMatchObject({ chunks: 3, replaced: 150 });
    const rows = await chunkRows('reader', 'manual.pdf');
    expect(rows.map((r) => r.content.trim().split(' ')[0])).toEqual(['v2', 'v2', 'v2']);
    await waitForJobs(fx.core);
    expect((await fx.core.call('knowledge.listSources', { persona: 'reader' }))[0]).toMatchObject({ chunks: 3, embedded: 3, bytes: null });
  });

  it('a failure midway (after a first batch was written) leaves the old version whole', async () => {
    const bad = chunks(250, 'v3');
    bad[180] = { content: 'page number beyond int range', pageFrom: 3_000_000_000, pageTo: 3_000_000_000 };
    const before = await fx.core.call('knowledge.listSources', { persona: 'reader' });
    const { rows: jobsBefore } = await fx.core.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs');
    await expect(replaceSource(fx.core.ctx, { persona: 'reader', source: 'manual.pdf', kind: 'pdf', chunks: bad })).rejects.toThrow();
    expect((await chunkRows('reader', 'manual.pdf')).map((r) => r.content.trim().split(' ')[0])).toEqual(['v2', 'v2', 'v2']);
    expect(await fx.core.call('knowledge.listSources', { persona: 'reader' })).toEqual(before);
    const { rows: jobsAfter } = await fx.core.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs');
    expect(jobsAfter[0]!.n).toBe(jobsBefore[0]!.n);
  });

  it('sources are per persona; deleteSource removes one source and its chunks', async () => {
    await replaceSource(fx.core.ctx, { persona: 'main', source: 'manual.pdf', chunks: chunks(2, 'main') });
    await replaceSource(fx.core.ctx, { persona: 'reader', source: 'notes.md', kind: 'markdown', chunks: chunks(4, 'notes') });
    expect((await fx.core.call('knowledge.listSources', { persona: 'reader' })).map((s) => s.source).sort()).toEqual(['manual.pdf', 'notes.md']);
    expect(await fx.core.call('knowledge.deleteSource', { persona: 'reader', source: 'manual.pdf' })).toEqual({ deleted: 3, trashId: expect.any(String) });
    expect((await fx.core.call('knowledge.listSources', { persona: 'reader' })).map((s) => s.source)).toEqual(['notes.md']);
    expect(await chunkRows('main', 'manual.pdf')).toHaveLength(2);
    expect(await fx.core.dispatch('knowledge.deleteSource', { persona: 'reader', source: 'manual.pdf' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    await waitForJobs(fx.core);
  });

  it('refuses an unknown persona or an empty source name', async () => {
    await expect(replaceSource(fx.core.ctx, { persona: 'ghost', source: 'a.md', chunks: chunks(1, 'x') })).rejects.toMatchObject({ code: 'not_found' });
    await expect(replaceSource(fx.core.ctx, { persona: 'reader', source: '  ', chunks: chunks(1, 'x') })).rejects.toMatchObject({ code: 'invalid_args' });
  });
});
