import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Memory } from '../../shared/api';
import { clearSnapshot, readSnapshot, snapshotOrRender } from '../conversations/snapshot';
import { fakeVector } from '../testing/fake-openai/embeddings';
import { makeEmbedFixture, storedVector, type EmbedFixture } from '../testing/embed-fixture';
import { waitFor, waitForJobs } from '../testing/wait-jobs';
import { importMemories } from './import';
import { deleteMemory } from './mutate';

let fx: EmbedFixture;
const NOW = new Date('2026-03-10T09:30:00Z');

beforeAll(async () => {
  fx = await makeEmbedFixture({ now: () => NOW });
  for (const name of ['Writer', 'Trader', 'Snap', 'Bulk']) await fx.core.call('personas.create', { name });
});

afterAll(async () => {
  await fx?.dispose();
});

async function jobsFor(id: string): Promise<{ id: string; state: string }[]> {
  const { rows } = await fx.core.ctx.db.query<{ id: string; state: string }>(
    `SELECT id::text, state FROM jobs WHERE queue = 'embeddings' AND args->'ids' ? $1 ORDER BY id`,
    [id],
  );
  return rows;
}

describe('memories', () => {
  it('write stores the memory with its defaults and an embedding job, then the vector arrives', async (t) => {
    // A server without pgvector stores no vectors and queues no embedding jobs (src/core/db/text-only.test.ts).
    if (!fx.core.ctx.db.features.vector) return t.skip('text-only server (no pgvector): no vectors or embedding jobs');
    const m = await fx.core.call('memories.write', { persona: 'writer', content: '  Finished chapter three  ', category: 'project' });
    expect(m).toMatchObject({ persona: 'writer', content: 'Finished chapter three', importance: 5, day: '2026-03-10', origin: 'manual' });
    expect(m.insertedAt).toBe(NOW.toISOString());
    expect(await jobsFor(m.id)).toHaveLength(1);
    await waitForJobs(fx.core);
    const after = await fx.core.call('memories.get', { id: m.id });
    expect(after.embeddingStatus).toBe('current');
    expect(Array.from((await storedVector(fx.core, 'memories', m.id, 16))!.vector)).toEqual(Array.from(fakeVector('Finished chapter three', 16)));
  });

  it('write refuses bad input with a clear error and stores nothing', async () => {
    const before = (await fx.core.call('memories.list', { persona: 'writer' })).total;
    for (const bad of [
      { persona: 'writer', content: '   ' },
      { persona: 'writer', content: 'x', importance: 11 },
      { persona: 'writer', content: 'x', day: '2026-13-01' },
      { persona: 'writer', content: 'x', origin: 'robot' },
    ]) {
      expect(await fx.core.dispatch('memories.write', bad)).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    }
    expect(await fx.core.dispatch('memories.write', { persona: 'nobody', content: 'x' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await fx.core.call('memories.list', { persona: 'writer' })).total).toBe(before);
  });

  it('update of content clears the vector and enqueues a new job in the same step; other fields keep it', async (t) => {
    // A server without pgvector stores no vectors and queues no embedding jobs (src/core/db/text-only.test.ts).
    if (!fx.core.ctx.db.features.vector) return t.skip('text-only server (no pgvector): no vectors or embedding jobs');
    const m = await fx.core.call('memories.write', { persona: 'writer', content: 'Met the editor', importance: 6 });
    await waitForJobs(fx.core);
    // Hold the next embedding request so the cleared state can be seen.
    let open!: () => void;
    fx.fake.push({ gate: new Promise<void>((r) => (open = r)) });
    const edited = await fx.core.call('memories.update', { id: m.id, content: 'Met the editor and the agent', importance: 8 });
    expect(edited).toMatchObject({ content: 'Met the editor and the agent', importance: 8, embeddingStatus: 'pending', embeddingModel: null });
    expect(edited.updatedAt).toBe(NOW.toISOString());
    expect(await jobsFor(m.id)).toHaveLength(2);
    const { rows } = await fx.core.ctx.db.query<{ e: boolean }>('SELECT embedding IS NULL AS e FROM memories WHERE id = $1', [m.id]);
    expect(rows[0]!.e).toBe(true);
    open();
    await waitForJobs(fx.core);
    expect((await storedVector(fx.core, 'memories', m.id, 16))!.vector).toEqual(fakeVector('Met the editor and the agent', 16));

    const recat = await fx.core.call('memories.update', { id: m.id, category: 'people', day: '2026-03-01' });
    expect(recat).toMatchObject({ category: 'people', day: '2026-03-01', embeddingStatus: 'current' });
    expect(await jobsFor(m.id)).toHaveLength(2);
    expect(await fx.core.dispatch('memories.update', { id: '00000000-0000-4000-8000-000000000000', importance: 3 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('delete returns the memory and restore puts it back from the trash with the same id, fields and vector', async (t) => {
    // A server without pgvector stores no vectors and queues no embedding jobs (src/core/db/text-only.test.ts).
    if (!fx.core.ctx.db.features.vector) return t.skip('text-only server (no pgvector): no vectors or embedding jobs');
    const m = await fx.core.call('memories.write', { persona: 'writer', content: 'Signed the contract', category: 'work', importance: 9 });
    await waitForJobs(fx.core);
    const del = await fx.core.call('memories.delete', { id: m.id });
    expect(del).toMatchObject({ id: m.id, deleted: true, memory: { id: m.id, content: 'Signed the contract' } });
    expect(await fx.core.dispatch('memories.get', { id: m.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const back = await fx.core.call('memories.restore', { memory: del.memory });
    const same = (x: Memory) => ({ ...x, embeddingStatus: null, embeddingModel: null, embeddingError: null });
    expect(same(back)).toEqual(same(m));
    // Its vector came back with it (docs/trash.md): nothing to embed again.
    expect(back.embeddingStatus).toBe('current');
    expect(await jobsFor(m.id)).toHaveLength(1);
    expect(await fx.core.dispatch('memories.restore', { memory: del.memory })).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it("the model's delete is scoped to its persona", async () => {
    const m = await fx.core.call('memories.write', { persona: 'trader', content: 'Bought ten shares' });
    await expect(deleteMemory(fx.core.ctx, m.id, { actor: 'tool' }, 'writer')).rejects.toMatchObject({ code: 'not_found' });
    expect((await fx.core.call('memories.get', { id: m.id })).content).toBe('Bought ten shares');
    expect((await deleteMemory(fx.core.ctx, m.id, { actor: 'tool' }, 'trader')).id).toBe(m.id);
  });

  it('categories and the top-memories block (importance, then recency)', async () => {
    const write = (content: string, importance: number, category?: string) =>
      fx.core.call('memories.write', { persona: 'snap', content, importance, ...(category ? { category } : {}) });
    await write('low', 2, 'misc');
    await write('first nine', 9, 'work');
    await fx.core.ctx.db.query(`UPDATE memories SET inserted_at = inserted_at - interval '1 day' WHERE content = 'first nine'`);
    await write('second nine', 9, 'work');
    await write('line one\nline two', 7);
    expect(await fx.core.call('memories.categories', { persona: 'snap' })).toEqual(['misc', 'work']);
    expect(await fx.core.call('memories.topBlock', { persona: 'snap' })).toBe(
      [
        '## Top memories for this persona',
        '- [work, imp=9] second nine',
        '- [work, imp=9] first nine',
        '- [general, imp=7] line one line two',
        '- [misc, imp=2] low',
      ].join('\n'),
    );
  });

  it('the snapshot is rendered once, reused verbatim, and rendered afresh after it is cleared', async () => {
    expect(await readSnapshot(fx.core.ctx.db, 'snap')).toBeNull();
    const first = await snapshotOrRender(fx.core.ctx.db, 'snap');
    expect(first).toBe(await fx.core.call('memories.topBlock', { persona: 'snap' }));
    await fx.core.call('memories.write', { persona: 'snap', content: 'brand new and vital', importance: 10 });
    expect(await snapshotOrRender(fx.core.ctx.db, 'snap')).toBe(first);
    await clearSnapshot(fx.core.ctx.db, 'snap');
    expect(await readSnapshot(fx.core.ctx.db, 'snap')).toBeNull();
    expect(await snapshotOrRender(fx.core.ctx.db, 'snap')).toContain('- [general, imp=10] brand new and vital');
  });

  it('list filters by category, importance, day range and origin, newest first, paged', async () => {
    const page = await fx.core.call('memories.list', { persona: 'snap', filters: { category: 'work', importanceMin: 9 }, limit: 1 });
    expect(page.total).toBe(2);
    expect(page.items.map((m) => m.content)).toEqual(['second nine']);
    const next = await fx.core.call('memories.list', { persona: 'snap', filters: { category: 'work', importanceMin: 9 }, limit: 1, cursor: page.nextCursor });
    expect(next.items.map((m) => m.content)).toEqual(['first nine']);
    expect(next.nextCursor).toBeNull();
    const none = await fx.core.call('memories.list', { persona: 'snap', filters: { origin: 'import', dayFrom: '2026-01-01', dayTo: '2026-12-31' } });
    expect(none.total).toBe(0);
  });
});

describe('importMemories', () => {
  it('loads rows in multi-row statements: vectors stored as given, rows without one get batched jobs', async (t) => {
    // A server without pgvector stores no vectors and queues no embedding jobs (src/core/db/text-only.test.ts).
    if (!fx.core.ctx.db.features.vector) return t.skip('text-only server (no pgvector): no vectors or embedding jobs');
    const rows = Array.from({ length: 150 }, (_, i) => ({
      content: `imported note ${i}`,
      category: 'import',
      importance: 1 + (i % 10),
      day: '2025-12-01',
      insertedAt: new Date('2025-12-01T10:00:00Z'),
      embedding: i < 20 ? fakeVector(`imported note ${i}`, 16) : null,
    }));
    const res = await importMemories(fx.core.ctx, 'bulk', rows);
    expect(res).toMatchObject({ inserted: 150, withVectors: 20, rebuiltIndex: false });
    const { rows: jobs } = await fx.core.ctx.db.query<{ n: number; ids: number }>(
      `SELECT count(*)::int AS n, sum(jsonb_array_length(args->'ids'))::int AS ids FROM jobs WHERE persona = 'bulk'`,
    );
    expect(jobs[0]).toEqual({ n: 3, ids: 130 }); // 64 + 64 + 2
    const listed = await fx.core.call('memories.list', { persona: 'bulk', filters: { origin: 'import' }, limit: 500 });
    expect(listed.total).toBe(150);
    expect(listed.items.find((m) => m.content === 'imported note 3')).toMatchObject({ embeddingStatus: 'current', insertedAt: '2025-12-01T10:00:00.000Z' });
    await waitForJobs(fx.core);
    await waitFor(async () => (await fx.core.call('memories.list', { persona: 'bulk', limit: 500 })).items.every((m) => m.embeddingStatus === 'current'), 'all imported rows embedded');
  });

  it('is all or nothing: one bad row rolls the whole import back', async () => {
    const rows = Array.from({ length: 450 }, (_, i) => ({ content: `row ${i}`, importance: i === 420 ? 11 : 5, day: '2025-12-02' }));
    await expect(importMemories(fx.core.ctx, 'bulk', rows)).rejects.toThrow();
    expect((await fx.core.call('memories.list', { persona: 'bulk', filters: { dayFrom: '2025-12-02' } })).total).toBe(0);
  });
});
