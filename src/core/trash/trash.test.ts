import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../index';
import { deleteMemoryOfPersona } from '../chat/stores';
import { replaceSource } from '../knowledge/store';
import { makeEmbedFixture, storedVector, type EmbedFixture } from '../testing/embed-fixture';
import { connectInMemory, resultText } from '../testing/mcp-client';
import { waitForJobs } from '../testing/wait-jobs';
import { schedulePurgeIfDue } from './purge';

// Every delete path moves what it deletes to the persona's trash; restore brings it back whole
// (docs/trash.md). Real PGlite, the fake embeddings server for vectors.
let fx: EmbedFixture;
let core: Core;
const DAY = 24 * 60 * 60 * 1000;
let now = new Date('2026-03-10T09:30:00Z');

beforeAll(async () => {
  fx = await makeEmbedFixture({ now: () => now });
  core = fx.core;
  for (const name of ['Tr', 'Kn', 'Age', 'Ex']) await core.call('personas.create', { name });
}, 120_000);

afterAll(async () => {
  await fx?.dispose();
});

async function embeddingJobsFor(id: string): Promise<number> {
  const { rows } = await core.ctx.db.query(`SELECT 1 FROM jobs WHERE queue = 'embeddings' AND args->'ids' ? $1`, [id]);
  return rows.length;
}

/**
 * Every place a person or a model reads memories from: a deleted memory must be in none of them.
 * The trash keeps rows outside the live tables, so these read paths need no filter; this list
 * is what shows it (docs/trash.md, "Read paths").
 */
async function memoryReadPaths(persona: string, id: string, text: string): Promise<Record<string, boolean>> {
  const list = await core.call('memories.list', { persona, limit: 500 });
  const search = await core.call('memories.search', { persona, query: text, limit: 50 });
  const recall = await core.call('recall', { persona, query: text, limit: 50, includeSuperseded: true });
  const top = await core.call('memories.topBlock', { persona });
  const counts = (await core.call('personas.list', {})).find((p) => p.id === persona)!.counts;
  const get = await core.dispatch('memories.get', { id });
  const { rows: live } = await core.ctx.db.query('SELECT 1 FROM memories WHERE id = $1', [id]);
  return {
    'memories.list': list.items.some((m) => m.id === id),
    'memories.list total': list.total !== counts.memories,
    'memories.search': search.hits.some((h) => h.id === id),
    recall: recall.some((h) => h.id === id),
    'memories.topBlock': top.includes(text),
    'memories.get': get.ok,
    'memories table': live.length > 0,
  };
}

describe('memories go to the trash and come back whole', () => {
  it('memories.delete: gone from every read path at once; trash.restore gives back the same id, versions, vector and links', async () => {
    const older = await core.call('memories.write', { persona: 'tr', content: 'Lives in Lyon', category: 'home', importance: 9 });
    const m = await core.call('memories.write', { persona: 'tr', content: 'Moved to Grenoble in November', category: 'home', importance: 9 });
    await core.call('memories.supersede', { id: older.id, by: m.id });
    await core.call('memories.update', { id: m.id, importance: 10 });
    await waitForJobs(core);
    const vector = await storedVector(fx.core, 'memories', m.id, 16);
    expect(vector).not.toBeNull();
    const versionsBefore = await core.call('memories.history', { id: m.id });
    const jobsBefore = await embeddingJobsFor(m.id);

    now = new Date(now.getTime() + 1000);
    await core.call('memories.delete', { id: m.id });
    expect(await memoryReadPaths('tr', m.id, 'Moved to Grenoble in November')).toEqual({
      'memories.list': false,
      'memories.list total': false,
      'memories.search': false,
      recall: false,
      'memories.topBlock': false,
      'memories.get': false,
      'memories table': false,
    });
    // What it had replaced is current again while it is in the trash.
    expect((await core.call('memories.get', { id: older.id })).supersededBy).toBeNull();

    const trash = await core.call('trash.list', { persona: 'tr' });
    expect(trash).toMatchObject([{ id: m.id, kind: 'memory', key: m.id, what: 'Moved to Grenoble in November', deletedAt: now.toISOString(), deletedBy: 'user' }]);
    expect(Date.parse(trash[0]!.purgeAt) - now.getTime()).toBe(30 * DAY);

    const back = await core.call('trash.restore', { id: m.id });
    expect(back).toMatchObject({ kind: 'memory', key: m.id });
    const restored = await core.call('memories.get', { id: m.id });
    expect(restored).toMatchObject({ id: m.id, content: m.content, category: 'home', importance: 10, day: m.day, insertedAt: m.insertedAt, embeddingStatus: 'current' });
    // The very vector, not a new one asked for.
    expect(await storedVector(fx.core, 'memories', m.id, 16)).toEqual(vector);
    expect(await embeddingJobsFor(m.id)).toBe(jobsBefore);
    const versionsAfter = await core.call('memories.history', { id: m.id });
    expect(versionsAfter.slice(0, versionsBefore.length).map((v) => [v.version, v.change, v.importance])).toEqual(
      versionsBefore.map((v) => [v.version, v.change, v.importance]),
    );
    expect(versionsAfter.slice(versionsBefore.length).map((v) => v.change)).toEqual(['delete', 'undelete']);
    expect((await core.call('memories.get', { id: older.id })).supersededBy).toBe(m.id);
    expect(await core.call('trash.list', { persona: 'tr' })).toEqual([]);
    expect((await memoryReadPaths('tr', m.id, 'Moved to Grenoble in November'))['memories.search']).toBe(true);
    expect(await core.dispatch('trash.restore', { id: m.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('a superseded memory comes back superseded by the same newer one', async () => {
    const a = await core.call('memories.write', { persona: 'tr', content: 'Works at Acme' });
    const b = await core.call('memories.write', { persona: 'tr', content: 'Works at Globex' });
    await core.call('memories.supersede', { id: a.id, by: b.id });
    await core.call('memories.delete', { id: a.id });
    await core.call('trash.restore', { id: a.id });
    expect((await core.call('memories.get', { id: a.id })).supersededBy).toBe(b.id);
  });

  it("the browser's undo (memories.restore) restores from the trash", async () => {
    const m = await core.call('memories.write', { persona: 'tr', content: 'Signed the lease' });
    const del = await core.call('memories.delete', { id: m.id });
    expect((await core.call('memories.restore', { memory: del.memory })).id).toBe(m.id);
    expect(await core.dispatch('memories.restore', { memory: del.memory })).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it("the model's memory tool and MCP delete_memory put memories in the trash", async () => {
    const byTool = await core.call('memories.write', { persona: 'tr', content: 'Has a cat named Miso' });
    expect(await deleteMemoryOfPersona(core.ctx, 'tr', byTool.id)).toBe(true);
    const byMcp = await core.call('memories.write', { persona: 'tr', content: 'Plays the cello' });
    const client = await connectInMemory(core, { persona: 'tr', readOnly: false }, 'Claude Desktop');
    try {
      resultText(await client.callTool({ name: 'delete_memory', arguments: { id: byMcp.id } }));
    } finally {
      await client.close();
    }
    const trash = await core.call('trash.list', { persona: 'tr' });
    expect(trash.filter((t) => t.id === byTool.id || t.id === byMcp.id).map((t) => [t.what, t.deletedBy]).sort()).toEqual([
      ['Has a cat named Miso', 'tool'],
      ['Plays the cello', 'mcp:Claude Desktop'],
    ]);
    for (const t of trash) await core.call('trash.restore', { id: t.id });
    expect((await core.call('memories.get', { id: byTool.id })).content).toBe('Has a cat named Miso');
    expect((await core.call('memories.get', { id: byMcp.id })).content).toBe('Plays the cello');
  });
});

describe('user-model dimensions and knowledge sources', () => {
  it('userModel.delete: out of the list and the prompt block; restore gives back the text and its history', async () => {
    await core.call('userModel.upsert', { persona: 'tr', dimension: 'diet', content: 'Vegetarian', confidence: 7 });
    await core.call('userModel.upsert', { persona: 'tr', dimension: 'diet', content: 'Vegetarian, eats fish', confidence: 8 });
    await core.call('userModel.delete', { persona: 'tr', dimension: 'diet' });
    expect((await core.call('userModel.list', { persona: 'tr' })).map((e) => e.dimension)).not.toContain('diet');
    expect(await core.call('userModel.block', { persona: 'tr' })).not.toContain('fish');
    const [item] = (await core.call('trash.list', { persona: 'tr' })).filter((t) => t.kind === 'user_model');
    expect(item).toMatchObject({ key: 'diet', what: 'diet' });
    await core.call('trash.restore', { id: item!.id });
    expect((await core.call('userModel.list', { persona: 'tr' })).find((e) => e.dimension === 'diet')).toMatchObject({ content: 'Vegetarian, eats fish', confidence: 8 });
    expect((await core.call('userModel.history', { persona: 'tr', dimension: 'diet' })).map((v) => v.change)).toEqual(['upsert', 'upsert', 'delete', 'restore']);

    // Written again while the old one is in the trash: restoring does not overwrite the new one.
    await core.call('userModel.delete', { persona: 'tr', dimension: 'diet' });
    await core.call('userModel.upsert', { persona: 'tr', dimension: 'diet', content: 'Vegan' });
    const [again] = (await core.call('trash.list', { persona: 'tr' })).filter((t) => t.kind === 'user_model');
    expect(await core.dispatch('trash.restore', { id: again!.id })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect((await core.call('userModel.list', { persona: 'tr' })).find((e) => e.dimension === 'diet')!.content).toBe('Vegan');
    expect(await core.call('trash.list', { persona: 'tr' })).toHaveLength(1);
  });

  it('knowledge.deleteSource: out of the list and recall; restore gives back its chunks with their vectors; a re-ingest of the same name does not collide', async () => {
    const chunks = [
      { content: 'The boiler service is due every October.', pageFrom: 1, pageTo: 1 },
      { content: 'The water shut-off valve is under the stairs.', pageFrom: 2, pageTo: 2 },
    ];
    await replaceSource(core.ctx, { persona: 'kn', source: 'house.md', kind: 'markdown', bytes: 100, pages: 2, chunks });
    await waitForJobs(core);
    const { rows: before } = await core.ctx.db.query<{ id: string }>('SELECT id FROM knowledge_chunks WHERE persona = $1 ORDER BY chunk_index', ['kn']);
    const vectors = await Promise.all(before.map((c) => storedVector(fx.core, 'knowledge_chunks', c.id, 16)));
    expect(vectors.every((v) => v !== null)).toBe(true);

    expect(await core.call('knowledge.deleteSource', { persona: 'kn', source: 'house.md' })).toMatchObject({ deleted: 2, trashId: expect.any(String) });
    expect(await core.call('knowledge.listSources', { persona: 'kn' })).toEqual([]);
    expect(await core.call('recall', { persona: 'kn', query: 'water shut-off valve', kinds: ['knowledge'] })).toEqual([]);
    const [item] = await core.call('trash.list', { persona: 'kn' });
    expect(item).toMatchObject({ kind: 'knowledge_source', key: 'house.md', what: 'house.md' });

    // The same name ingested again is a new document; the trashed one cannot come back over it.
    await replaceSource(core.ctx, { persona: 'kn', source: 'house.md', kind: 'markdown', bytes: 50, pages: 1, chunks: [{ content: 'New text.', pageFrom: 1, pageTo: 1 }] });
    expect(await core.dispatch('trash.restore', { id: item!.id })).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('house.md') } });
    expect((await core.call('knowledge.listSources', { persona: 'kn' }))[0]).toMatchObject({ source: 'house.md', bytes: 50 });
    await core.call('knowledge.deleteSource', { persona: 'kn', source: 'house.md' });

    await core.call('trash.restore', { id: item!.id });
    expect((await core.call('knowledge.listSources', { persona: 'kn' }))[0]).toMatchObject({ source: 'house.md', bytes: 100, pages: 2 });
    const { rows: after } = await core.ctx.db.query<{ id: string }>('SELECT id FROM knowledge_chunks WHERE persona = $1 ORDER BY chunk_index', ['kn']);
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(await Promise.all(after.map((c) => storedVector(fx.core, 'knowledge_chunks', c.id, 16)))).toEqual(vectors);
    const hits = await core.call('recall', { persona: 'kn', query: 'water shut-off valve', kinds: ['knowledge'] });
    expect(hits[0]).toMatchObject({ content: expect.stringContaining('shut-off valve') });
    // The newer one deleted above is still in the trash, on its own.
    expect((await core.call('trash.list', { persona: 'kn' })).map((t) => t.what)).toEqual(['house.md']);
  });
});

describe('purge, empty, export, persona delete', () => {
  it('a purge removes only what is older than trashDays; nothing due queues no job', async () => {
    const old = await core.call('memories.write', { persona: 'age', content: 'Old and deleted' });
    await core.call('memories.delete', { id: old.id });
    now = new Date(now.getTime() + 10 * DAY);
    const recent = await core.call('memories.write', { persona: 'age', content: 'Recently deleted' });
    await core.call('memories.delete', { id: recent.id });
    await core.call('settings.set', { trashDays: 15 });

    now = new Date(now.getTime() + 4 * DAY); // old: 14 days, recent: 4
    expect(await schedulePurgeIfDue(core.ctx)).toBe(false);
    now = new Date(now.getTime() + 1 * DAY + 1000); // old: 15 days and a second
    expect(await schedulePurgeIfDue(core.ctx)).toBe(true);
    const jobs = await waitForJobs(core, 'trash_purge');
    expect(jobs.map((j) => j.state)).toEqual(['completed']);
    expect((await core.call('trash.list', { persona: 'age' })).map((t) => t.what)).toEqual(['Recently deleted']);
    expect(await core.dispatch('trash.restore', { id: old.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // Its history stays (docs/history.md), ending in the delete.
    expect((await core.call('memories.history', { id: old.id })).at(-1)).toMatchObject({ change: 'delete' });
    await core.call('settings.set', { trashDays: 30 });
  });

  it('trash.empty needs confirm: true and removes only that persona\'s trash', async () => {
    const m = await core.call('memories.write', { persona: 'age', content: 'To be emptied' });
    await core.call('memories.delete', { id: m.id });
    const others = (await core.call('trash.list', { persona: 'tr' })).length;
    expect(await core.dispatch('trash.empty', { persona: 'age', confirm: 'yes' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await core.dispatch('trash.empty', { persona: 'age' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await core.call('trash.list', { persona: 'age' })).toHaveLength(2);
    expect(await core.call('trash.empty', { persona: 'age', confirm: true })).toEqual({ emptied: 2 });
    expect(await core.call('trash.list', { persona: 'age' })).toEqual([]);
    expect(await core.call('trash.list', { persona: 'tr' })).toHaveLength(others);
  });

  it('an export leaves the trash out; deleting the persona removes its trash', async () => {
    await core.call('memories.write', { persona: 'ex', content: 'Kept and exported' });
    const gone = await core.call('memories.write', { persona: 'ex', content: 'In the trash, not exported' });
    await core.call('memories.delete', { id: gone.id });
    await core.call('userModel.upsert', { persona: 'ex', dimension: 'trashed-dimension', content: 'Not exported either' });
    await core.call('userModel.delete', { persona: 'ex', dimension: 'trashed-dimension' });
    const out = await core.call('personas.export', { id: 'ex' });
    const text = gunzipSync(readFileSync(out.path!)).toString('utf8');
    expect(text).toContain('Kept and exported');
    expect(text.split('\n').filter((l) => l.startsWith('{"type":"memory"'))).toHaveLength(1);
    // Their history is exported, as every deleted item's is (docs/history.md); the items themselves are not.
    const itemRows = text.split('\n').filter((l) => l.startsWith('{"type":"memory"') || l.startsWith('{"type":"userModel"'));
    expect(itemRows.join('\n')).toContain('Kept and exported');
    expect(itemRows.join('\n')).not.toMatch(/In the trash, not exported|Not exported either/);

    await core.call('personas.delete', { id: 'ex', confirm: 'Ex' });
    const { rows } = await core.ctx.db.query(`SELECT 1 FROM trash_items WHERE persona = 'ex'`);
    expect(rows).toEqual([]);
    // "main" is emptied rather than removed: its trash goes too, rows and all.
    const kept = await core.call('memories.write', { persona: 'main', content: 'Main memory in the trash' });
    await core.call('memories.delete', { id: kept.id });
    await core.call('personas.delete', { id: 'main', confirm: 'main' });
    const { rows: left } = await core.ctx.db.query(`SELECT 1 FROM trash_items UNION ALL SELECT 1 FROM trash_rows r WHERE NOT EXISTS (SELECT 1 FROM trash_items i WHERE i.id = r.item_id)`);
    expect(left.length).toBe((await core.ctx.db.query(`SELECT 1 FROM trash_items`)).rows.length);
    expect(await core.call('trash.list', { persona: 'main' })).toEqual([]);
  });
});
