import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileQuery } from '../testing/hostile-queries';
import { clusteredSpace, pick, prng, question, sentence } from '../testing/synthetic-corpus';
import { importMemories } from '../memories/import';
import { replaceSource } from '../knowledge/store';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { waitForJobs } from '../testing/wait-jobs';
import { recall } from './recall';
import { skipWithoutVectors } from '../testing/server';

const NOW = new Date('2026-06-01T12:00:00Z');
const PERSONAS = ['ana', 'ben', 'cai', 'dee'];
let fx: EmbedFixture;
const chunkIds = new Map<string, Set<string>>();

beforeAll(async () => {
  fx = await makeEmbedFixture({ now: () => NOW });
  const ctx = fx.core.ctx;
  const rnd = prng(7);
  const space = clusteredSpace(3, 16, 5);
  for (const p of PERSONAS) {
    await fx.core.call('personas.create', { name: p });
    // Every persona holds the same kind of text: isolation must come from the filter, not from vocabulary.
    const rows = Array.from({ length: 60 }, () => {
      const at = new Date(NOW.getTime() - rnd() * 90 * 86_400_000);
      return {
        content: sentence(rnd),
        category: pick(rnd, ['journal', 'work']),
        importance: 1 + Math.floor(rnd() * 10),
        day: at.toISOString().slice(0, 10),
        insertedAt: at,
        embedding: space.sample(rnd),
      };
    });
    await importMemories(ctx, p, rows);
    const res = await replaceSource(ctx, {
      persona: p,
      source: `${p}-notes.md`,
      chunks: Array.from({ length: 8 }, () => ({ content: `${sentence(rnd)} ${sentence(rnd)}` })),
    });
    expect(res.chunks).toBe(8);
    const { rows: ids } = await ctx.db.query<{ id: string }>('SELECT id FROM knowledge_chunks WHERE persona = $1', [p]);
    chunkIds.set(p, new Set(ids.map((r) => r.id)));
  }
  await waitForJobs(fx.core);
}, 120_000);

afterAll(async () => {
  await fx?.dispose();
});

describe('recall never raises on natural-language input', () => {
  // A seeded 300 here: every fragment in HOSTILE turns up, and two 10 kB strings;
  // `npm run bench:faults -- --only 'hostile recall'` runs thousands.
  it('300 random and hostile query strings all answer ok through dispatch', async () => {
    const rnd = prng(42);
    const failures: string[] = [];
    for (let i = 0; i < 300; i++) {
      const query = hostileQuery(rnd);
      const res = await fx.core.dispatch('recall', { persona: pick(rnd, PERSONAS), query, limit: 10 });
      if (!res.ok) failures.push(`${JSON.stringify(query.slice(0, 60))}: ${res.error.message}`);
    }
    expect(failures).toEqual([]);
    // and nothing was dropped or altered on the way
    const { rows } = await fx.core.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories');
    expect(rows[0]!.n).toBe(60 * PERSONAS.length);
  }, 300_000);
});

describe('persona isolation (property over random personas and queries)', () => {
  it('no hit ever belongs to another persona, with and without vectors', async () => {
    const rnd = prng(99);
    const space = clusteredSpace(3, 16, 5);
    let hitsSeen = 0;
    for (let i = 0; i < 120; i++) {
      const persona = pick(rnd, PERSONAS);
      const query = rnd() < 0.8 ? question(rnd) : hostileQuery(rnd);
      const hits = await recall(fx.core.ctx, {
        persona,
        query,
        limit: 1 + Math.floor(rnd() * 30),
        queryEmbedding: rnd() < 0.5 ? space.sample(rnd) : null,
        ...(rnd() < 0.2 ? { kinds: [pick(rnd, ['memory', 'knowledge'] as const)] } : {}),
      });
      for (const h of hits) {
        if (h.kind === 'memory') expect(h.memory!.persona).toBe(persona);
        else expect(chunkIds.get(persona)!.has(h.id)).toBe(true);
      }
      hitsSeen += hits.length;
    }
    expect(hitsSeen).toBeGreaterThan(500);
  }, 120_000);
});

describe('a memory whose vector is all zeros', () => {
  it('is found by its words and scored as one without a vector (its cosine distance is NaN)', async (t) => {
    skipWithoutVectors(t, fx.core.ctx.db);
    await fx.core.call('personas.create', { name: 'zed' });
    await importMemories(fx.core.ctx, 'zed', [
      { content: 'the zebra quartz lamp', importance: 5, day: '2026-05-30', insertedAt: new Date('2026-05-30T10:00:00Z'), embedding: new Float32Array(16) },
      { content: 'a zebra on the plain', importance: 5, day: '2026-05-30', insertedAt: new Date('2026-05-30T11:00:00Z'), embedding: clusteredSpace(3, 16, 5).sample(prng(1)) },
    ]);
    const hits = await recall(fx.core.ctx, { persona: 'zed', query: 'zebra quartz', queryEmbedding: clusteredSpace(3, 16, 5).sample(prng(2)), kinds: ['memory'] });
    const zero = hits.find((h) => h.content === 'the zebra quartz lamp');
    expect(zero?.score.cosine).toBeNull();
    expect(hits.find((h) => h.content === 'a zebra on the plain')?.score.cosine).toEqual(expect.any(Number));
  });
});
