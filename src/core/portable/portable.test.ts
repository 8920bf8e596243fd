import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConversation } from '../conversations/snapshot';
import { replaceSource } from '../knowledge/store';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { waitForJobs } from '../testing/wait-jobs';

// A persona with every kind of row, exported, imported elsewhere and exported
// again: the two files must hold the same records (docs/export.md).

const NAME = 'Weiß Küche 東京';
let a: EmbedFixture;
let b: EmbedFixture;
let persona: string;
let exported: { name: string; bytes: number; path?: string | null };
const tmp = (f: string) => join(tmpdir(), `hearth-export-test-${process.pid}-${f}`);

function lines(path: string): string[] {
  return gunzipSync(readFileSync(path)).toString('utf8').trimEnd().split('\n');
}

async function fill(fx: EmbedFixture, id: string): Promise<void> {
  const { core } = fx;
  const conv = await ensureConversation(core.ctx.db, id);
  await core.ctx.db.query(`UPDATE conversations SET summary = $2, memory_snapshot = $3, user_msgs_since_nudge = 3 WHERE id = $1`, [
    conv,
    'Résumé: talked about the café “Zur Sonne” 🌞',
    '- [travel, imp=7] Flight to Tōkyō on 3 March',
  ]);
  const m1 = await core.call('memories.write', { persona: id, content: 'Flight to Tōkyō on 3 March ✈️', category: 'travel', importance: 7, day: '2025-03-03' });
  await core.call('memories.write', { persona: id, content: 'Prefers Grüner Tee over coffee', day: '2024-12-31', origin: 'review' });
  await core.call('memories.write', { persona: id, content: 'Said "hi" in Ελληνικά\nand a second line', importance: 2, origin: 'mcp:Claude Desktop' });
  await core.ctx.db.query('UPDATE memories SET conversation_id = $2 WHERE id = $1', [m1.id, conv]);
  await core.ctx.db.query(
    `INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, memory_ids, folded) VALUES
       ($1, 'user', 'Ich fliege nach Tōkyō', NULL, NULL, NULL, true),
       ($1, 'assistant', '', $2::jsonb, NULL, NULL, false),
       ($1, 'tool', 'saved', NULL, 'call_1', $3::jsonb, false),
       ($1, 'assistant', 'Gute Reise! 🎌', NULL, NULL, NULL, false)`,
    [conv, JSON.stringify([{ id: 'call_1', name: 'memory', arguments: '{"action":"write","content":"Flug"}' }]), JSON.stringify([m1.id])],
  );
  // History (docs/history.md): an older fact superseded by the flight, its versions, and one of a memory since deleted.
  const old = await core.call('memories.write', { persona: id, content: 'Flight to Tōkyō on 2 March', category: 'travel', day: '2025-03-02' });
  await core.ctx.db.query(`UPDATE memories SET superseded_by = $2, superseded_at = now() WHERE id = $1`, [old.id, m1.id]);
  await core.ctx.db.query(
    `INSERT INTO memory_versions (memory_id, persona, version, change, content, category, importance, day, superseded_by, actor, conversation_id, reason, valid_from, valid_to) VALUES
       ($1, $2, 1, 'create', 'Flight to Tōkyō on 2 March', 'travel', 5, '2025-03-02', NULL, 'user', NULL, NULL, now() - interval '1 day', now()),
       ($1, $2, 2, 'supersede', 'Flight to Tōkyō on 2 March', 'travel', 5, '2025-03-02', $3, 'review', $4, 'moved by a day — „Umbuchung“', now(), NULL),
       ($5, $2, 1, 'create', 'Gone but remembered', NULL, 5, '2025-01-01', NULL, 'user', NULL, NULL, now() - interval '2 days', now() - interval '1 day'),
       ($5, $2, 2, 'delete', 'Gone but remembered', NULL, 5, '2025-01-01', NULL, 'user', NULL, NULL, now() - interval '1 day', now() - interval '1 day')`,
    [old.id, id, m1.id, conv, '0b7f3a52-1111-4c4c-9d9d-000000000001'],
  );
  await core.ctx.db.query(
    `INSERT INTO user_model_versions (persona, dimension, version, change, content, confidence, actor, valid_from, valid_to) VALUES
       ($1, 'preferences', 1, 'upsert', 'Kaffee', 4, 'tool', now() - interval '1 day', now()),
       ($1, 'preferences', 2, 'upsert', 'Grüner Tee, keine Milch', 8, 'user', now(), NULL)`,
    [id],
  );
  await core.call('userModel.upsert', { persona: id, dimension: 'preferences', content: 'Grüner Tee, keine Milch', confidence: 8 });
  await core.call('userModel.upsert', { persona: id, dimension: 'goals', content: 'Learn 日本語' });
  await replaceSource(core.ctx, {
    persona: id,
    source: 'Reiseführer.md',
    kind: 'markdown',
    bytes: 1234,
    pages: 2,
    chunks: [
      { content: 'Tōkyō has many izakaya near Shinjuku station.', pageFrom: 1, pageTo: 1 },
      { content: 'Kyōto temples open at dawn; Fushimi Inari never closes.', pageFrom: 1, pageTo: 2 },
    ],
  });
  await waitForJobs(core, 'embeddings', 120_000);
}

async function snapshotCounts(fx: EmbedFixture) {
  return (await fx.core.call('personas.list', {})).map((p) => ({ id: p.id, name: p.name, counts: p.counts }));
}

beforeAll(async () => {
  a = await makeEmbedFixture();
  b = await makeEmbedFixture();
  // The same model tag on both sides (the tag names the server), as after moving to a new machine.
  await b.core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: a.server.baseURL, model: 'fake-embed', dimensions: 16 } });
  persona = (await a.core.call('personas.create', { name: NAME })).id;
  await fill(a, persona);
  exported = await a.core.call('personas.export', { id: persona });
}, 240_000);

afterAll(async () => {
  await a?.dispose();
  await b?.dispose();
});

describe('personas.export', () => {
  it('writes a private gzip of JSON Lines: header, persona, every row, end', () => {
    expect(exported.name).toBe(`${NAME}.hearth`);
    const l = lines(exported.path!);
    const header = JSON.parse(l[0]!);
    expect(header).toMatchObject({ format: 'hearth-persona', version: 1, embeddingModel: expect.stringContaining('fake-embed') });
    const types: string[] = l.slice(1).map((x) => JSON.parse(x).type);
    const sections = types.filter((t, i) => t !== types[i - 1]);
    expect(sections).toEqual(['persona', 'conversation', 'memory', 'memoryVersion', 'message', 'userModel', 'userModelVersion', 'knowledgeSource', 'knowledgeChunk', 'end']);
    expect(types.filter((t) => t === 'memory')).toHaveLength(4);
    expect(types.filter((t) => t === 'message')).toHaveLength(4);
    const superseded = JSON.parse(l.find((x) => x.includes('"Flight to Tōkyō on 2 March"') && x.startsWith('{"type":"memory"'))!);
    expect(superseded.supersededBy).toBe(JSON.parse(l.find((x) => x.startsWith('{"type":"memory"') && x.includes('on 3 March'))!).id);
    const memory = JSON.parse(l.find((x) => x.startsWith('{"type":"memory"') && x.includes('Tōkyō on 3 March'))!);
    expect(memory).toMatchObject({ category: 'travel', importance: 7, day: '2025-03-03', origin: 'manual', embeddingModel: header.embeddingModel });
    expect(Buffer.from(memory.embedding, 'base64').length).toBe(16 * 4);
    expect(exported.bytes).toBe(readFileSync(exported.path!).length);
    expect(statSync(exported.path!).mode & 0o777).toBe(0o600);
    expect(l.join('\n')).not.toMatch(/apiKey|baseUrl|settings/);
  });
});

describe('personas.import', () => {
  it('round trip: export → import elsewhere → export gives the same records', async () => {
    const src = tmp('rt.hearth');
    writeFileSync(src, readFileSync(exported.path!));
    const res = await b.core.call('personas.import', { path: src });
    expect(res.persona.name).toBe(NAME);
    expect(res.toEmbed).toBe(0);
    expect(res.persona.counts).toEqual({ memories: 4, userModel: 2, knowledgeSources: 1, knowledgeChunks: 2, messages: 4 });
    const again = await b.core.call('personas.export', { id: res.persona.id });
    const one = lines(exported.path!);
    const two = lines(again.path!);
    expect(two.length).toBe(one.length);
    const { exportedAt: _a, ...h1 } = JSON.parse(one[0]!);
    const { exportedAt: _b, ...h2 } = JSON.parse(two[0]!);
    expect(h2).toEqual(h1);
    expect(two.slice(2)).toEqual(one.slice(2)); // byte-identical records after the persona line
    expect(JSON.parse(two[1]!)).toMatchObject({ type: 'persona', name: NAME });
    // and what a user sees works: recall finds the memory and the document by meaning and text
    const hits = await b.core.call('recall', { persona: res.persona.id, query: 'Tōkyō izakaya', limit: 5 });
    expect(hits.map((h) => h.content).join('\n')).toContain('izakaya near Shinjuku');
    expect((await b.core.call('userModel.list', { persona: res.persona.id })).map((u) => u.content)).toContain('Grüner Tee, keine Milch');
  }, 120_000);

  it('into the same database: a suffixed name, fresh ids where they collide, links kept consistent', async () => {
    const before = await a.core.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories');
    const res = await a.core.call('personas.import', { name: 'x.hearth', dataBase64: readFileSync(exported.path!).toString('base64') });
    expect(res.persona.name).toBe(`${NAME} (2)`);
    expect(res.persona.id).not.toBe(persona);
    const { rows } = await a.core.ctx.db.query<{ id: string; conversation_id: string | null; content: string }>(
      'SELECT id, conversation_id, content FROM memories WHERE persona = $1',
      [res.persona.id],
    );
    expect(rows.length).toBe(4);
    expect((await a.core.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories')).rows[0]!.n).toBe(before.rows[0]!.n + 4);
    // the supersession link and the versions follow the new ids; the deleted memory's history gets its own id too
    const { rows: sup } = await a.core.ctx.db.query<{ superseded_by: string }>(
      `SELECT superseded_by FROM memories WHERE persona = $1 AND superseded_by IS NOT NULL`,
      [res.persona.id],
    );
    expect(sup.map((r) => r.superseded_by)).toEqual([rows.find((r) => r.content.startsWith('Flight to Tōkyō on 3'))!.id]);
    const { rows: versions } = await a.core.ctx.db.query<{ memory_id: string; superseded_by: string | null }>(
      `SELECT memory_id, superseded_by FROM memory_versions WHERE persona = $1 ORDER BY id`,
      [res.persona.id],
    );
    expect(versions.length).toBeGreaterThanOrEqual(4);
    const ownIds = new Set(rows.map((r) => r.id));
    const { rows: original } = await a.core.ctx.db.query<{ memory_id: string }>('SELECT memory_id FROM memory_versions WHERE persona = $1', [persona]);
    expect(versions.some((v) => original.some((o) => o.memory_id === v.memory_id))).toBe(false);
    expect(versions.filter((v) => v.superseded_by).every((v) => ownIds.has(v.superseded_by!))).toBe(true);
    const flight = rows.find((r) => r.content.startsWith('Flight'))!;
    const { rows: conv } = await a.core.ctx.db.query<{ id: string }>('SELECT id FROM conversations WHERE persona = $1', [res.persona.id]);
    expect(flight.conversation_id).toBe(conv[0]!.id);
    const { rows: tool } = await a.core.ctx.db.query<{ memory_ids: string[] }>(
      `SELECT memory_ids FROM messages WHERE conversation_id = $1 AND role = 'tool'`,
      [conv[0]!.id],
    );
    expect(tool[0]!.memory_ids).toEqual([flight.id]);
    // the original is untouched
    expect((await a.core.call('personas.list', {})).find((p) => p.id === persona)!.counts.memories).toBe(4);
  }, 120_000);

  it('queues vectors from another model for the backfill', async () => {
    const l = lines(exported.path!);
    const header = JSON.parse(l[0]!);
    header.embeddingModel = 'other-model';
    const changed = l.map((x, i) => (i === 0 ? JSON.stringify(header) : x.replaceAll(`"embeddingModel":"${JSON.parse(l[0]!).embeddingModel}"`, '"embeddingModel":"other-model"')));
    const res = await b.core.call('personas.import', { name: 'other.hearth', dataBase64: gzipSync(changed.join('\n') + '\n').toString('base64') });
    expect(res.toEmbed).toBe(6); // 4 memories + 2 chunks
    await waitForJobs(b.core, 'embeddings', 120_000);
    const { rows } = await b.core.ctx.db.query<{ m: string }>('SELECT DISTINCT embedding_model AS m FROM memories WHERE persona = $1', [res.persona.id]);
    expect(rows.map((r) => r.m)).toEqual([JSON.parse(l[0]!).embeddingModel]);
  }, 120_000);

  describe('a bad file changes nothing and says why', () => {
    const good = () => lines(exported.path!);
    const cases: [string, () => Buffer, RegExp][] = [
      ['truncated', () => readFileSync(exported.path!).subarray(0, Math.floor(readFileSync(exported.path!).length * 0.6)), /cut short/],
      ['not gzip', () => Buffer.from('hello, world\n'), /not a Hearth export/],
      ['another format', () => gzipSync('{"format":"letta-agent","version":1}\n'), /not a Hearth persona export.*letta-agent/],
      ['a newer version', () => gzipSync(good().map((x, i) => (i === 0 ? x.replace('"version":1', '"version":7') : x)).join('\n')), /newer Hearth \(format version 7; this Hearth reads up to version 1\)/],
      ['a broken line', () => gzipSync(good().map((x, i) => (i === 5 ? x.slice(0, 40) : x)).join('\n')), /^Line 6 is not a JSON record/],
      ['an invalid record', () => gzipSync(good().map((x, i) => (i === 3 ? x.replace('"importance":7', '"importance":70') : x)).join('\n')), /^Line 4 is not a valid record \(importance/],
      ['no end record', () => gzipSync(good().slice(0, -1).join('\n')), /without its end record/],
      ['a dropped line', () => gzipSync(good().filter((_, i) => i !== 4).join('\n')), /says it holds 4 memory records but 3 were read/],
      ['an empty file', () => gzipSync(''), /empty/],
    ];
    for (const [what, bytes, message] of cases) {
      it(what, async () => {
        const before = await snapshotCounts(b);
        const res = await b.core.dispatch('personas.import', { name: 'bad.hearth', dataBase64: bytes().toString('base64') });
        expect(res).toMatchObject({ ok: false, error: { code: 'import_error' } });
        if (!res.ok) expect(res.error.message).toMatch(message);
        expect(await snapshotCounts(b)).toEqual(before);
      }, 60_000);
    }
  });
});

describe('memories.importFrom', () => {
  it('a Markdown list: previews first, writes only what is new, days from a leading date', async () => {
    const text = [
      '# My notes',
      '- 2025-03-04: Started the pottery course',
      '- Likes  green tea.',
      '  (jasmine, mostly)',
      '* Flight to Tōkyō on 3 March ✈️',
      '1. Moved to Lyon',
    ].join('\n');
    const preview = await a.core.call('memories.importFrom', { persona, format: 'text', text, dryRun: true });
    expect(preview).toMatchObject({ added: 3, skipped: 1, dryRun: true });
    expect(preview.items).toEqual([
      { content: 'Started the pottery course', day: '2025-03-04', category: null, status: 'added' },
      { content: 'Likes  green tea. (jasmine, mostly)', day: expect.any(String), category: null, status: 'added' },
      { content: 'Flight to Tōkyō on 3 March ✈️', day: expect.any(String), category: null, status: 'duplicate' },
      { content: 'Moved to Lyon', day: expect.any(String), category: null, status: 'added' },
    ]);
    const count = async () => (await a.core.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories WHERE persona = $1', [persona])).rows[0]!.n;
    expect(await count()).toBe(4);
    const res = await a.core.call('memories.importFrom', { persona, format: 'text', text });
    expect(res).toMatchObject({ added: 3, skipped: 1, dryRun: false });
    expect(await count()).toBe(7);
    const pottery = (await a.core.call('memories.list', { persona, limit: 100 })).items.find((m) => m.content.includes('pottery'))!;
    expect(pottery).toMatchObject({ day: '2025-03-04', origin: 'import' });
    // the same list again adds nothing
    expect(await a.core.call('memories.importFrom', { persona, format: 'text', text })).toMatchObject({ added: 0, skipped: 4 });
  }, 60_000);

  it("mem0's export JSON and ChatGPT's pasted memories", async () => {
    const mem0 = {
      results: [
        { id: 'a1', memory: 'Is vegetarian', user_id: 'alex', categories: ['food'], created_at: '2024-07-26T10:29:36.630547-07:00' },
        { id: 'a2', memory: 'moved to lyon', user_id: 'alex', created_at: '2024-07-20T01:00:00Z' },
      ],
    };
    const r1 = await a.core.call('memories.importFrom', { persona, format: 'mem0', dataBase64: Buffer.from(JSON.stringify(mem0)).toString('base64') });
    expect(r1).toMatchObject({ added: 1, skipped: 1 });
    expect(r1.items[0]).toMatchObject({ content: 'Is vegetarian', category: 'food', day: expect.stringMatching(/^2024-07-2[67]$/) });
    const chatgpt = 'Is learning Japanese.\nPrefers short answers\n\nIs vegetarian';
    const r2 = await a.core.call('memories.importFrom', { persona, format: 'chatgpt', text: chatgpt });
    expect(r2).toMatchObject({ added: 2, skipped: 1 });
    const bad = await a.core.dispatch('memories.importFrom', { persona, format: 'mem0', text: '{"nope": 1}' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'import_error' } });
  }, 60_000);
});
