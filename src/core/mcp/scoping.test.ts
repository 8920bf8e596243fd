import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Memory } from '../../shared/api';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { connectInMemory, isToolError, resultText } from '../testing/mcp-client';

// Property: a connection bound to persona A never sees, changes or deletes
// persona B's memories, whatever it asks. Seeded, so a failure can be replayed.
const SEED = Number(process.env.HEARTH_TEST_SEED ?? 20261201);
const ROUNDS = 150;

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['ferry', 'cello', 'budget', 'doctor', 'garden', 'python', 'sister', 'marathon', 'invoice', 'recipe', 'berlin', 'deadline', 'piano', 'loan', 'camping'];
const CATEGORIES = ['work', 'health', 'family', 'travel', 'money'];

let fx: EmbedFixture;
const own = new Map<string, Memory>();
const other = new Map<string, Memory>();

beforeAll(async () => {
  fx = await makeEmbedFixture();
  await fx.core.call('personas.create', { name: 'Alpha' });
  await fx.core.call('personas.create', { name: 'Beta' });
  const rnd = prng(SEED);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  for (let i = 0; i < 80; i++) {
    // Both personas share the vocabulary, so every query matches memories of both.
    const persona = i % 2 ? 'alpha' : 'beta';
    const content = `${pick(WORDS)} ${pick(WORDS)} note ${i} about ${pick(WORDS)}`;
    const m = await fx.core.call('memories.write', { persona, content, category: pick(CATEGORIES), importance: 1 + Math.floor(rnd() * 10), day: `2026-0${1 + (i % 9)}-1${i % 10}` });
    (persona === 'alpha' ? own : other).set(m.id, m);
  }
  // 80 writes: seconds on a quiet machine, minutes on a loaded one.
}, 600_000);

afterAll(async () => {
  await fx?.dispose();
});

const idsIn = (text: string) => [...text.matchAll(/\[memory ([0-9a-f-]{36})/g)].map((m) => m[1]!);

describe('persona scoping (property over random calls)', () => {
  it(`a client bound to alpha never reaches beta's memories (seed ${SEED}, ${ROUNDS} rounds)`, { timeout: 600_000 }, async () => {
    const client = await connectInMemory(fx.core, { persona: 'alpha', readOnly: false }, 'prober');
    const rnd = prng(SEED ^ 0x5eed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const otherIds = [...other.keys()];
    let seen = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const kind = Math.floor(rnd() * 5);
      if (kind <= 1) {
        const query = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(WORDS)).join(' ');
        const r = await client.callTool({ name: 'search_memory', arguments: { query, limit: 1 + Math.floor(rnd() * 20) } });
        const ids = idsIn(resultText(r));
        for (const id of ids) expect(own.has(id), `search "${query}" returned ${id}`).toBe(true);
        seen += ids.length;
      } else if (kind === 2) {
        const r = await client.callTool({ name: 'list_memories', arguments: { limit: 1 + Math.floor(rnd() * 100), ...(rnd() < 0.5 ? { category: pick(CATEGORIES) } : {}) } });
        for (const id of idsIn(resultText(r))) expect(own.has(id)).toBe(true);
      } else {
        const id = pick(otherIds);
        const name = pick(['get_memory', 'update_memory', 'delete_memory']);
        const args = name === 'update_memory' ? { id, content: 'overwritten by alpha', importance: 1 } : { id };
        const r = await client.callTool({ name, arguments: args });
        expect(isToolError(r), `${name} ${id}`).toBe(true);
        expect(resultText(r)).toBe(`Error: This persona has no memory ${id}.`);
      }
    }
    expect(seen).toBeGreaterThan(ROUNDS / 2); // the searches did find things (alpha's)
    // Beta is untouched: every memory still there, unchanged.
    const beta = await fx.core.call('memories.list', { persona: 'beta', limit: 500 });
    expect(beta.items.map((m) => [m.id, m.content, m.importance]).sort()).toEqual([...other.values()].map((m) => [m.id, m.content, m.importance]).sort());
    await client.close();
  });
});
