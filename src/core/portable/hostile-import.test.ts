import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { waitForJobs } from '../testing/wait-jobs';
import { gzipLines } from './lines';

// Hostile and edited .hearth files (docs/export.md, "Limits" and "What an
// import refuses"): each is built here, small, from gzip pieces; a gzip of
// many members is one stream to the reader, so a few kB can stand for GiBs.

let f: EmbedFixture;
let dir: string;
let model: string;
const T = '2025-03-03T10:00:00.000000Z';

beforeAll(async () => {
  f = await makeEmbedFixture();
  dir = mkdtempSync(join(tmpdir(), 'hearth-hostile-import-'));
  model = f.core.ctx.embedder.model();
}, 120_000);

afterAll(async () => {
  await f?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const header = () => JSON.stringify({ format: 'hearth-persona', version: 1, appVersion: '0.1.0', exportedAt: T, embeddingModel: model });
const personaLine = (id = `p-${randomUUID().slice(0, 8)}`) => JSON.stringify({ type: 'persona', id, name: `Imported ${id}`, createdAt: T });
const vec = (xs: number[]) => {
  const b = Buffer.alloc(xs.length * 4);
  xs.forEach((x, i) => b.writeFloatBE(x, i * 4));
  return b.toString('base64');
};
const good16 = () => vec(Array.from({ length: 16 }, (_, i) => (i === 3 ? 0.8 : i === 5 ? 0.6 : 0)));
function memory(content: string, extra: Record<string, unknown> = {}) {
  return {
    type: 'memory', id: randomUUID(), category: null, content, importance: 5, day: '2025-03-03', origin: 'manual', conversationId: null,
    insertedAt: T, updatedAt: T, embedding: good16(), embeddingModel: model, embeddingError: null, supersededBy: null, supersededAt: null,
    ...extra,
  };
}
/** A whole file: header, persona, the records, and an end record that counts them. */
function file(records: Record<string, unknown>[], opts: { raw?: (lines: string[]) => string[] } = {}): Buffer {
  const counts: Record<string, number> = { persona: 1 };
  for (const r of records) counts[r.type as string] = (counts[r.type as string] ?? 0) + 1;
  let lines = [header(), personaLine(), ...records.map((r) => JSON.stringify(r)), JSON.stringify({ type: 'end', counts })];
  if (opts.raw) lines = opts.raw(lines);
  return gzipSync(lines.join('\n') + '\n');
}
const write = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
/** `n` MiB of one byte as gzip members, concatenated: one stream of n MiB to the reader, ~1 kB a MiB on disk. */
function inflating(byte: number, n: number): Buffer {
  const member = gzipSync(Buffer.alloc(1024 * 1024, byte), { level: 9 });
  return Buffer.concat(Array.from({ length: n }, () => member));
}
async function visible() {
  return (await f.core.call('personas.list', {})).map((p) => `${p.id}:${p.counts.memories}`).sort();
}
async function allPersonas() {
  return (await f.core.ctx.db.query<{ id: string }>('SELECT id FROM personas ORDER BY id')).rows.map((r) => r.id);
}
/** Imports through the method; expects a refusal with `code` and `message`, and nothing left behind, not even hidden. */
async function refused(path: string, code: string, message: RegExp) {
  const before = await allPersonas();
  const res = await f.core.dispatch('personas.import', { path });
  expect(res).toMatchObject({ ok: false, error: { code } });
  if (!res.ok) expect(res.error.message).toMatch(message);
  expect(await allPersonas()).toEqual(before);
}

describe('a hostile file is refused at the line where it goes wrong, while it is read', () => {
  it('a bad line 2 is named even when the file is damaged further on (it is not unpacked whole first)', async () => {
    const body = gzipSync([header(), '{"type":"persona", oops', ...Array.from({ length: 2000 }, (_, i) => JSON.stringify(memory(`m${i}`)))].join('\n'));
    // Cut short: a reader that unpacked the whole file first would answer "cut short" instead.
    await refused(write('bad-line-2.hearth', body.subarray(0, body.length - 200)), 'import_error', /^Line 2 is not a JSON record/);
  });

  it('a valid start, then 1 GiB of newlines (1 MB of gzip): refused at the first empty line', async () => {
    const path = write('newlines.hearth', Buffer.concat([gzipSync(`${header()}\n${personaLine()}\n`), inflating(10, 1024)]));
    await refused(path, 'import_error', /^Line 3 is not a JSON record/);
  }, 60_000);

  it('one line of 1 GiB (NUL bytes after a valid start): refused once it passes the line limit', async () => {
    const path = write('long-line.hearth', Buffer.concat([gzipSync(`${header()}\n${personaLine()}\n{"type":"memory","content":"`), inflating(0, 1024)]));
    await refused(path, 'import_error', /^Line 3 is longer than any record can be \(over 16 MiB\)/);
  }, 60_000);

  it('4 GiB of NUL bytes: refused at line 1 by the line limit', async () => {
    await refused(write('nul.hearth', inflating(0, 4096)), 'import_error', /^Line 1 is longer than any record can be/);
  }, 60_000);

  it('a file that unpacks far beyond its size is refused by the size limit, whatever its lines', async () => {
    const path = write('bomb.hearth', Buffer.concat([gzipSync(`${header()}\n`), inflating(32, 64)]));
    const seen: number[] = [];
    await expect(async () => {
      for await (const [n] of gzipLines(path, { maxInflatedBytes: 8 * 1024 * 1024, maxLineBytes: 64 * 1024 * 1024 })) seen.push(n);
    }).rejects.toThrow(/unpacks to more than 8 MiB.*line 2 was being read/);
    expect(seen).toEqual([1]);
  });

  it('a file larger than the bound is refused from its size, before it is read', async () => {
    const path = join(dir, 'huge.hearth');
    writeFileSync(path, gzipSync(header()));
    truncateSync(path, 3 * 1024 ** 3); // sparse: takes no disk
    await refused(path, 'too_large', /3\.0 GiB; a persona file can be at most 2\.0 GiB/);
  });
});

describe('an import can be cancelled', () => {
  it('personas.importCancel during the writing stops it and leaves nothing, not even hidden', async () => {
    const path = write('cancel-me.hearth', file(Array.from({ length: 400 }, (_, i) => memory(`Cancelled note ${i}`))));
    const before = await allPersonas();
    let answer: Promise<unknown> | null = null;
    const off = f.core.ctx.events.subscribe((name, payload) => {
      const p = payload as { op?: string; stage?: string; persona?: string };
      // The first 'writing' event comes right after the hidden persona's row is in (import.ts): cancel there.
      if (name === 'personas.transfer' && p.op === 'import' && p.stage === 'writing' && !answer) {
        answer = f.core.call('personas.importCancel', { name: 'cancel-me.hearth' });
      }
    });
    try {
      const res = await f.core.dispatch('personas.import', { path });
      expect(res).toMatchObject({ ok: false, error: { code: 'cancelled', message: expect.stringMatching(/cancelled\. Nothing was imported/) } });
      expect(await answer).toEqual({ cancelled: 1 });
    } finally {
      off();
    }
    expect(await allPersonas()).toEqual(before);
    expect(await f.core.call('personas.importCancel', { name: 'cancel-me.hearth' })).toEqual({ cancelled: 0 });
  }, 60_000);
});

describe('what an import refuses or re-embeds (docs/export.md)', () => {
  it('vectors of the wrong length, all zero, NaN or Infinity are left out and made again by the model, never stored as current', async () => {
    const nan = Buffer.alloc(64);
    nan.writeFloatBE(Number.NaN, 0);
    const inf = Buffer.alloc(64);
    inf.writeFloatBE(Number.POSITIVE_INFINITY, 8);
    const rows = [
      memory('Good vector about tea'),
      memory('Too long vector about coffee', { embedding: vec(Array.from({ length: 17 }, () => 0.2)) }),
      memory('Zero vector about cocoa', { embedding: '' }),
      memory('Zero vector spelled out about juice', { embedding: vec(Array(16).fill(0)) }),
      memory('NaN vector about water', { embedding: nan.toString('base64') }),
      memory('Infinite vector about milk', { embedding: inf.toString('base64') }),
    ];
    const res = await f.core.call('personas.import', { path: write('vectors.hearth', file(rows)) });
    if (!f.core.ctx.db.features.vector) {
      // A server without pgvector stores no vectors at all (docs/server-mode.md): nothing to rank wrongly.
      expect(res).toMatchObject({ toIndex: 0, toEmbed: 6 });
      return;
    }
    expect(res).toMatchObject({ toIndex: 1, toEmbed: 5 });
    await waitForJobs(f.core, 'embeddings', 60_000);
    const { rows: stored } = await f.core.ctx.db.query<{ content: string; norm: number; model: string | null; dims: number }>(
      `SELECT content, vector_norm(embedding) AS norm, embedding_model AS model, vector_dims(embedding) AS dims FROM memories WHERE persona = $1 ORDER BY seq`,
      [res.persona.id],
    );
    // Every row ends with a vector the current model made (or the file's good one): unit length, none zero.
    for (const r of stored) expect([r.content, r.model, Math.round(r.norm * 1000) / 1000]).toEqual([r.content, model, 1]);
    // Recall of an unrelated query does not put the zero-vector row first.
    const hits = await f.core.call('recall', { persona: res.persona.id, query: 'tea', limit: 3 });
    expect(hits[0]?.content).toBe('Good vector about tea');
  }, 120_000);

  it("a message's link to a memory outside the file stops the import, naming the line", async () => {
    const other = await f.core.call('memories.write', { persona: 'main', content: 'A secret of another persona' });
    const conv = { type: 'conversation', id: randomUUID(), title: '', summary: '', memorySnapshot: null, userMsgsSinceNudge: 0, createdAt: T, updatedAt: T };
    const m = memory('Own memory');
    const msg = {
      type: 'message', conversationId: conv.id, role: 'tool', content: 'saved', toolCalls: null, toolCallId: 'call_1',
      memoryIds: [m.id, other.id], folded: false, createdAt: T,
    };
    await refused(write('link.hearth', file([conv, m, msg])), 'import_error', /^Line 5: the message links a memory the file does not hold/);
  });

  const cases: [string, (r: Record<string, unknown>) => Record<string, unknown>, RegExp][] = [
    ['a day the calendar does not have (2025-02-30)', (r) => ({ ...r, day: '2025-02-30' }), /^Line 3 is not a valid record \(day: a day the calendar has/],
    ['year 0 (0000-01-01)', (r) => ({ ...r, day: '0000-01-01' }), /^Line 3 is not a valid record \(day: a day the calendar has/],
    ['a time that does not exist', (r) => ({ ...r, insertedAt: '2025-04-31T10:00:00Z' }), /^Line 3 is not a valid record \(insertedAt: a time that exists/],
    ['half a surrogate pair in the text', (r) => ({ ...r, content: 'Broken \ud800 pair' }), /^Line 3 holds text that is not valid Unicode/],
  ];
  for (const [what, change, message] of cases) {
    it(`${what}: refused with the line, nothing stored`, async () => {
      const before = await visible();
      await refused(write('edited.hearth', file([change(memory('Edited memory'))])), 'import_error', message);
      expect(await visible()).toEqual(before);
    });
  }
});

describe('memories.importFrom refuses what it cannot store as given', () => {
  const mem0 = (items: unknown[]) => Buffer.from(JSON.stringify({ results: items })).toString('base64');
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['mem0 created_at 2025-02-30', { format: 'mem0', dataBase64: mem0([{ memory: 'Likes tea', created_at: '2025-02-30T10:00:00Z' }]) }, /^Item 1 .*"2025-02-30T10:00:00Z", a day the calendar does not have/],
    ['mem0 created_at 0000-01-01', { format: 'mem0', dataBase64: mem0([{ memory: 'a' }, { memory: 'Likes tea', created_at: '0000-01-01' }]) }, /^Item 2 .*a day the calendar does not have/],
    ['mem0 text with half a surrogate pair', { format: 'mem0', dataBase64: Buffer.from('[{"memory":"ok"},{"memory":"bad \\ud800 pair"}]').toString('base64') }, /^Item 2 holds text that is not valid Unicode/],
    ['a list item dated 0000-01-01', { format: 'text', text: '- 2025-01-01: fine\n- 0000-01-01: Likes tea' }, /^Item 2 begins with 0000-01-01, a day the calendar does not have/],
  ];
  for (const [what, args, message] of cases) {
    it(`${what}: refused, naming the item, nothing written`, async () => {
      const before = await visible();
      const res = await f.core.dispatch('memories.importFrom', { persona: 'main', ...args });
      expect(res).toMatchObject({ ok: false, error: { code: 'import_error' } });
      if (!res.ok) expect(res.error.message).toMatch(message);
      expect(await visible()).toEqual(before);
    });
  }
});
