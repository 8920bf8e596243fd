import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConversation } from '../conversations/snapshot';
import type { Db } from '../db/client';
import { createCore } from '../index';
import { importMemories } from '../memories/import';
import { replaceSource } from '../knowledge/store';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { importPersonaFile } from './import';
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
  // History (docs/history.md): an older fact superseded by the flight, an edit, a user-model change, and a memory since deleted.
  const old = await core.call('memories.write', { persona: id, content: 'Flight to Tōkyō on 2 March', category: 'travel', day: '2025-03-02' });
  await core.call('memories.update', { id: old.id, importance: 6 });
  await core.call('memories.supersede', { id: old.id, by: m1.id, reason: 'moved by a day — „Umbuchung“' });
  const gone = await core.call('memories.write', { persona: id, content: 'Gone but remembered' });
  await core.call('memories.delete', { id: gone.id });
  await core.call('userModel.upsert', { persona: id, dimension: 'preferences', content: 'Kaffee', confidence: 4 });
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
  persona = (await a.core.call('personas.create', { name: NAME, avatar: '🧑‍🍳' })).id;
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
    const embedCallsBefore = b.fake.requests.length;
    const src = tmp('rt.hearth');
    writeFileSync(src, readFileSync(exported.path!));
    const res = await b.core.call('personas.import', { path: src });
    expect(res.persona.name).toBe(NAME);
    expect(res.persona.avatar).toBe('🧑‍🍳');
    expect(res.toEmbed).toBe(0);
    expect(res.toIndex).toBe(6); // 4 memories + 2 chunks: their vectors join the index in the background
    expect(res.persona.counts).toEqual({ memories: 4, userModel: 2, knowledgeSources: 1, knowledgeChunks: 2, messages: 4 });
    const again = await b.core.call('personas.export', { id: res.persona.id });
    const one = lines(exported.path!);
    const two = lines(again.path!);
    expect(two.length).toBe(one.length);
    const { exportedAt: _a, ...h1 } = JSON.parse(one[0]!);
    const { exportedAt: _b, ...h2 } = JSON.parse(two[0]!);
    expect(h2).toEqual(h1);
    expect(two.slice(2)).toEqual(one.slice(2)); // byte-identical records after the persona line
    expect(JSON.parse(two[1]!)).toMatchObject({ type: 'persona', name: NAME, avatar: '🧑‍🍳' });
    // once the background jobs have run, every vector is current (searchable by meaning), and the file is still the same
    await waitForJobs(b.core, 'embeddings', 120_000);
    const items = (await b.core.call('memories.list', { persona: res.persona.id, limit: 100 })).items;
    expect(items.map((m) => m.embeddingStatus)).toEqual(['current', 'current', 'current', 'current']);
    expect(b.fake.requests.length).toBe(embedCallsBefore); // placed, not re-embedded
    expect(lines((await b.core.call('personas.export', { id: res.persona.id })).path!).slice(2)).toEqual(one.slice(2));
    // and what a user sees works: recall finds the memory and the document by meaning and text
    const hits = await b.core.call('recall', { persona: res.persona.id, query: 'Tōkyō izakaya', limit: 5 });
    expect(hits.map((h) => h.content).join('\n')).toContain('izakaya near Shinjuku');
    expect((await b.core.call('userModel.list', { persona: res.persona.id })).map((u) => u.content)).toContain('Grüner Tee, keine Milch');
  }, 120_000);

  it('a file from before avatars imports with the name’s first character; a bad avatar is refused by its line', async () => {
    const l = lines(exported.path!);
    const { avatar: _gone, ...older } = JSON.parse(l[1]!);
    const withOut = gzipSync([l[0], JSON.stringify(older), ...l.slice(2)].join('\n') + '\n');
    const res = await b.core.call('personas.import', { name: 'older.hearth', dataBase64: withOut.toString('base64') });
    expect(res.persona.avatar).toBeNull();
    expect(res.persona.counts.memories).toBe(4);
    const before = (await b.core.call('personas.list', {})).length;
    const bad = gzipSync([l[0], JSON.stringify({ ...older, avatar: 'three words here' }), ...l.slice(2)].join('\n') + '\n');
    expect(await b.core.dispatch('personas.import', { name: 'bad.hearth', dataBase64: bad.toString('base64') })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/Line 2.*one emoji or one or two letters/) },
    });
    expect((await b.core.call('personas.list', {})).length).toBe(before);
  }, 120_000);

  it('on a server (INSERTs, not the embedded bulk COPY) the same file gives the same records', async () => {
    // The real database seen as a server sees it: without the embedded-only handle, import writes with INSERTs.
    const c = await makeEmbedFixture();
    try {
      await c.core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: a.server.baseURL, model: 'fake-embed', dimensions: 16 } });
      const db = c.core.ctx.db;
      const asServer: Db = {
        kind: 'server', features: db.features, local: null, server: 'test', close: async () => undefined,
        query: (sql, params) => db.query(sql, params), exec: (sql) => db.exec(sql), transaction: (fn) => db.transaction(fn),
      };
      const src = tmp('server.hearth');
      writeFileSync(src, readFileSync(exported.path!));
      const res = await importPersonaFile({ ...c.core.ctx, db: asServer }, src);
      rmSync(src, { force: true });
      const again = await c.core.call('personas.export', { id: res.persona.id });
      expect(lines(again.path!).slice(2)).toEqual(lines(exported.path!).slice(2));
    } finally {
      await c.dispose();
    }
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

  it('an edited file: a memory id met twice gets a fresh one, an all-zero vector is left out to be made again', async () => {
    const res = await b.core.call('personas.import', {
      name: 'edited.hearth',
      dataBase64: biggerFile(3, (extra) => {
        const first = JSON.parse(extra[0]!);
        extra[1] = JSON.stringify({ ...JSON.parse(extra[1]!), id: first.id });
        // Every component zero: no direction to compare, so the row is stored without it and re-embedded.
        extra[2] = JSON.stringify({ ...JSON.parse(extra[2]!), embedding: '' });
      }).toString('base64'),
    });
    const { rows } = await b.core.ctx.db.query<{ id: string; content: string; dims: number; norm: number }>(
      `SELECT id, content, vector_dims(embedding) AS dims, vector_norm(embedding) AS norm FROM memories WHERE persona = $1 AND content LIKE 'Imported note%' ORDER BY seq`,
      [res.persona.id],
    );
    expect(rows.map((r) => r.content)).toEqual(['Imported note 0 about the garden', 'Imported note 1 about the garden', 'Imported note 2 about the garden']);
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
    expect(rows.map((r) => r.dims)).toEqual([1536, 1536, null]);
    expect(rows[0]!.norm).toBeGreaterThan(0);
    expect(res.toEmbed).toBe(1);
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
      // A day no calendar has is refused by its line; a row the database refuses (a NUL in text, the same chunk index
      // twice): the message names the lines of the page it was in.
      ['a day that does not exist', () => gzipSync(good().map((x, i) => (i === 3 ? x.replace(/"day":"[^"]*"/, '"day":"2025-02-30"') : x)).join('\n')),
        /^Line 4 is not a valid record \(day: a day the calendar has/],
      ['a NUL character in a memory', () => gzipSync(good().map((x, i) => (i === 3 ? x.replace('"content":"', '"content":"\\u0000') : x)).join('\n')),
        /^Lines? \d+(–\d+)? could not be stored: .*Nothing was imported/],
      ['a chunk index twice', () => gzipSync(withExtraChunk(good()).join('\n')), /^Lines? \d+(–\d+)? could not be stored: .*Nothing was imported/],
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

/** The file's lines with its last chunk twice (a fresh id, the same index), and the end record's count to match. */
function withExtraChunk(l: string[]): string[] {
  const last = l.findLastIndex((x) => x.startsWith('{"type":"knowledgeChunk"'));
  const end = JSON.parse(l[l.length - 1]!);
  end.counts.knowledgeChunk += 1;
  return [...l.slice(0, last + 1), JSON.stringify({ ...JSON.parse(l[last]!), id: randomUUID() }), ...l.slice(last + 1, -1), JSON.stringify(end)];
}

/** The exported file with `n` more memories after the last one (and the end record's count to match). */
function biggerFile(n: number, change?: (memoryLines: string[]) => void): Buffer {
  const l = lines(exported.path!);
  const lastMemory = l.findLastIndex((x) => x.startsWith('{"type":"memory"'));
  const template = JSON.parse(l[lastMemory]!);
  const extra = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ ...template, id: randomUUID(), content: `Imported note ${i} about the garden`, supersededBy: null, supersededAt: null }),
  );
  change?.(extra);
  const end = JSON.parse(l[l.length - 1]!);
  end.counts.memory += n;
  const out = [...l.slice(0, lastMemory + 1), ...extra, ...l.slice(lastMemory + 1, -1), JSON.stringify(end)];
  return gzipSync(out.join('\n') + '\n');
}

/** Every row in the tables an import writes, hidden personas included; embedding jobs in every state (only a persona's removal deletes them). */
async function rawCounts(fx: EmbedFixture) {
  const { rows } = await fx.core.ctx.db.query(
    `SELECT (SELECT count(*) FROM personas)::int AS personas, (SELECT count(*) FROM memories)::int AS memories,
            (SELECT count(*) FROM memory_versions)::int AS versions, (SELECT count(*) FROM messages)::int AS messages,
            (SELECT count(*) FROM conversations)::int AS conversations, (SELECT count(*) FROM knowledge_chunks)::int AS chunks,
            (SELECT count(*) FROM jobs WHERE queue = 'embeddings')::int AS jobs`,
  );
  return rows[0];
}

describe('import without holding up other calls', () => {
  it('a recall made while a big import runs is answered before it ends; the persona appears only at the end', async () => {
    const file = tmp('big.hearth');
    writeFileSync(file, biggerFile(3000));
    const order: string[] = [];
    let during: Promise<void> | null = null;
    const imported = b.core.ctx.events.subscribe((name, payload) => {
      const p = payload as { op?: string; stage?: string; done?: number };
      if (name !== 'personas.transfer' || p.op !== 'import' || p.stage !== 'writing' || during) return;
      during = (async () => {
        const listed = await b.core.call('personas.list', {});
        order.push(`list:${listed.length}`);
        await b.core.call('recall', { persona: 'main', query: 'garden', limit: 5 });
        order.push('recall');
      })();
    });
    const before = (await b.core.call('personas.list', {})).length;
    try {
      const res = await b.core.call('personas.import', { path: file });
      order.push('import');
      expect(res.persona.counts.memories).toBe(3004);
      await during;
    } finally {
      imported();
      rmSync(file, { force: true });
    }
    // the list taken mid-import did not show the half-imported persona; recall did not wait for the import
    expect(order).toEqual([`list:${before}`, 'recall', 'import']);
    expect((await b.core.call('personas.list', {})).length).toBe(before + 1);
  }, 300_000);

  it('a bad line after thousands of stored rows: nothing of it is left, not even hidden', async () => {
    // The big import's vectors may still be joining the index meanwhile: rawCounts counts jobs in
    // every state, so their progress does not change it, and this test does not wait for them.
    const before = await rawCounts(b);
    const file = biggerFile(2500, (extra) => {
      extra[2400] = extra[2400]!.replace(/"importance":\d+/, '"importance":11');
    });
    const res = await b.core.dispatch('personas.import', { name: 'bad.hearth', dataBase64: file.toString('base64') });
    expect(res).toMatchObject({ ok: false, error: { code: 'import_error' } });
    if (!res.ok) expect(res.error.message).toMatch(/^Line \d+ is not a valid record \(importance/);
    expect(await rawCounts(b)).toEqual(before);
  }, 300_000);

  it('an export is the persona as it was when it started: a memory written or edited meanwhile is not in it', async () => {
    const { id } = await b.core.call('personas.create', { name: 'Snapshot' });
    const vec = Array.from({ length: 16 }, (_, i) => (i + 1) / 16);
    const { ids } = await importMemories(
      b.core.ctx,
      id,
      Array.from({ length: 2000 }, (_, i) => ({ content: `Note ${i} about the orchard`, day: '2025-05-01', embedding: vec, embeddingModel: b.core.ctx.embedder.model() })),
    );
    const lastId = ids[ids.length - 1]!;
    let during: Promise<unknown> | null = null;
    const off = b.core.ctx.events.subscribe((name, payload) => {
      const p = payload as { op?: string; persona?: string };
      if (name !== 'personas.transfer' || p.op !== 'export' || p.persona !== id || during) return;
      // Issued once the export has begun, before it reads the memories' pages.
      during = Promise.all([
        b.core.call('memories.write', { persona: id, content: 'Written during the export' }),
        b.core.call('memories.update', { id: lastId, content: 'Edited during the export' }),
      ]);
    });
    let out: { path?: string | null };
    try {
      out = await b.core.call('personas.export', { id });
      await during;
    } finally {
      off();
    }
    expect(during).not.toBeNull();
    // Both changes are in the database…
    const now = (await b.core.call('memories.list', { persona: id, limit: 5 })).items.map((m) => m.content);
    expect(now).toContain('Written during the export');
    expect((await b.core.call('memories.get', { id: lastId })).content).toBe('Edited during the export');
    // …and neither is in the file: the memory as it was, its history ending before the edit.
    const l = lines(out.path!);
    expect(l.some((x) => x.includes('during the export'))).toBe(false);
    const memory = JSON.parse(l.find((x) => x.startsWith('{"type":"memory"') && x.includes(lastId))!);
    // the edit dropped the old text's vector from the database: the file has none for it, so the import re-embeds it
    expect(memory).toMatchObject({ content: 'Note 1999 about the orchard', embedding: null, embeddingModel: null });
    const versions = l.filter((x) => x.startsWith('{"type":"memoryVersion"') && x.includes(lastId)).map((x) => JSON.parse(x));
    expect(versions.map((v) => [v.content, v.validTo])).toEqual([['Note 1999 about the orchard', null]]);
    expect(JSON.parse(l[l.length - 1]!).counts.memory).toBe(2000);
    // and it imports whole
    const res = await b.core.call('personas.import', { name: 'snap.hearth', dataBase64: readFileSync(out.path!).toString('base64') });
    expect(res.persona.counts.memories).toBe(2000);
  }, 300_000);

  it('Hearth stopped mid-import: the next start removes the hidden persona and says so', async () => {
    const fx = await makeEmbedFixture();
    const dataDir = fx.core.dataDir;
    const file = tmp('stop.hearth');
    writeFileSync(file, biggerFile(3000));
    try {
      const before = await fx.core.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories');
      // Stopped right after the hidden persona is written (the first "writing" progress): the database's
      // close is queued there, synchronously, ahead of the import's next statement (its lock is FIFO), so
      // the import is cut at that point however fast the machine. The rest of the stop follows.
      let stopping: Promise<void> | null = null;
      const off = fx.core.ctx.events.subscribe((name, payload) => {
        const p = payload as { op?: string; stage?: string };
        if (name === 'personas.transfer' && p.op === 'import' && p.stage === 'writing' && !stopping) stopping = fx.core.ctx.db.close();
      });
      const res = await fx.core.dispatch('personas.import', { path: file });
      off();
      expect(stopping).not.toBeNull();
      await stopping;
      await fx.core.close();
      expect(res.ok).toBe(false);
      const again = await createCore({ dataDir, dailyBackups: false });
      try {
        const { rows } = await again.ctx.db.query<{ importing: number; memories: number }>(
          `SELECT (SELECT count(*) FROM personas WHERE importing)::int AS importing, (SELECT count(*) FROM memories)::int AS memories`,
        );
        expect(rows[0]).toEqual({ importing: 0, memories: before.rows[0]!.n });
        expect((await again.call('app.info', {})).notices.join('\n')).toMatch(/import that had not finished .* was removed/);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(file, { force: true });
      rmSync(dataDir, { recursive: true, force: true });
      await fx.server.close();
    }
  }, 300_000);
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
