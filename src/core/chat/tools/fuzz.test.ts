import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestCore } from '../../testing/core';
import { type ChatFixture, chatFixture } from '../../testing/chat-fixture';
import { runTool } from './run';

// Seeded, so a failure can be replayed: mulberry32.
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let f: ChatFixture;
let core: TestCore;
let foreignId: string;
beforeAll(async () => {
  // The fixture's fake embedder keeps the local model out of this test.
  f = await chatFixture();
  core = f.core;
  await core.call('personas.create', { name: 'Other' });
  foreignId = (await core.call('memories.write', { persona: 'other', content: 'belongs to another persona' })).id;
});
afterAll(async () => {
  await f.dispose();
});

const huge = (n: number) => 'a'.repeat(n);
const badValues: unknown[] = [null, true, 0, -1, 1.5, 11, '', '   ', [], {}, ['x'], { a: 1 }, '7', 1e309, NaN];

/** Payloads that are wrong by construction: each must be refused. */
function payload(r: () => number): { tool: string; raw: string } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const bad = () => pick(badValues);
  const kind = Math.floor(r() * 14);
  switch (kind) {
    case 0: // not JSON at all, or truncated JSON
      return { tool: pick(['memory', 'user_model_write', 'recall', 'knowledge_ingest']), raw: pick(['{', '{"action":"write","content":"x"', 'nope', '[1,2', '{"a":}', "{'action':'write'}", 'null', '42', '"str"', '[]']) };
    case 1: // memory write with a bad content
      return { tool: 'memory', raw: JSON.stringify({ action: 'write', content: pick([null, 1, [], {}, '', '  \n ', true, huge(20_001)]), category: 'x' }) };
    case 2: // memory write with a bad importance
      return { tool: 'memory', raw: JSON.stringify({ action: 'write', content: 'valid text', importance: pick([0, 11, -3, 2.5, '5', true, [5], {}]) }) };
    case 3: // memory write with a bad category
      return { tool: 'memory', raw: JSON.stringify({ action: 'write', content: 'valid text', category: pick([5, [], {}, true, huge(65)]) }) };
    case 4: // unknown or missing action
      return { tool: 'memory', raw: JSON.stringify({ action: pick(['update', 'WRITE', '', 'bulk_delete', 1, null, undefined]), content: 'x', id: foreignId }) };
    case 5: // delete: missing, malformed, or another persona's id
      return { tool: 'memory', raw: JSON.stringify({ action: 'delete', id: pick([undefined, 'abc', 42, '', foreignId, foreignId, '00000000-0000-4000-8000-000000000000']) }) };
    case 6: // user model: bad dimension
      return { tool: 'user_model_write', raw: JSON.stringify({ dimension: pick(['', '  ', 'a,b', '[x]', 'line\nbreak', huge(65), 7, null]), content: 'ok content' }) };
    case 7: // user model: bad content or confidence
      return r() < 0.5
        ? { tool: 'user_model_write', raw: JSON.stringify({ dimension: 'goals', content: pick(['', '   ', huge(4_001), 3, null, []]) }) }
        : { tool: 'user_model_write', raw: JSON.stringify({ dimension: 'goals', content: 'x', confidence: pick([0, 11, 7.5, '9', []]) }) };
    case 8: // recall with bad arguments
      return { tool: 'recall', raw: JSON.stringify({ query: pick(['', '  ', 5, null, huge(2_001)]), limit: pick([undefined, 0, 21, '3']) }) };
    case 9:
      return { tool: 'recall', raw: JSON.stringify({ query: 'ok', date: pick(['2026-13-01', 'yesterday', '2026-02-30', 20260101, '']) }) };
    case 10: // knowledge_ingest: missing or mixed fields
      return {
        tool: 'knowledge_ingest',
        raw: JSON.stringify(pick([{}, { path: '' }, { text: 'abc' }, { source: 's' }, { text: '', source: 's' }, { text: 'abc', source: '' }, { path: 'a.md', text: 'x', source: 's' }, { path: 5 }, { text: ['a'], source: 's' }])),
      };
    case 11: // a random wrong type anywhere in an otherwise plausible write
      return { tool: 'memory', raw: JSON.stringify({ action: 'write', content: pick([null, 12, [], {}]), importance: bad() }) };
    case 12: // tools that do not exist, including prototype names
      return { tool: pick(['__proto__', 'constructor', 'toString', 'memories', 'bulk_delete', '', 'MEMORY']), raw: '{"action":"write","content":"x"}' };
    default: // oversize raw arguments
      return { tool: pick(['memory', 'knowledge_ingest']), raw: JSON.stringify({ action: 'write', text: huge(2_200_000), source: 's', content: 'x' }) };
  }
}

async function counts(): Promise<string> {
  const { rows } = await core.ctx.db.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM memories)::int AS memories, (SELECT count(*) FROM user_models)::int AS user_models,
            (SELECT count(*) FROM knowledge_chunks)::int AS chunks, (SELECT count(*) FROM jobs WHERE queue = 'ingest')::int AS ingests`,
  );
  return JSON.stringify(rows[0]);
}

it('500 fuzzed tool-argument payloads never crash, are each answered as an error, and write nothing', async () => {
  const before = await counts();
  const r = rng(20261130);
  const conv = (await core.ctx.db.query<{ id: string }>(`INSERT INTO conversations (persona) VALUES ('main') RETURNING id`)).rows[0]!.id;
  for (let i = 0; i < 500; i++) {
    const p = payload(r);
    const out = await runTool(core.ctx, { persona: 'main', conversationId: conv }, p.tool, p.raw);
    expect(out.ok, `payload ${i}: ${p.tool} ${p.raw.slice(0, 120)}`).toBe(false);
    expect(out.content).toMatch(/^Error: /);
    expect(out.memoryIds).toEqual([]);
  }
  expect(await counts()).toBe(before);
  expect((await core.call('memories.get', { id: foreignId })).content).toBe('belongs to another persona');
});
