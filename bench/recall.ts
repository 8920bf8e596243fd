// Recall latency and exactness on a synthetic corpus.
//   npx tsx bench/recall.ts --n 10000 [--queries 200] [--seed 1] [--dims 512]
// Imports n memories (with vectors) through importMemories, then runs each
// query text-only and with a vector, and against the exact full-scan scorer.
import { parseArgs } from 'node:util';
import type { RecallHit } from '../src/shared/api';
import { importMemories } from '../src/core/memories/import';
import { exactRecall, recall, type RecallArgs } from '../src/core/recall/recall';
import { makeTestCore } from '../src/core/testing/core';
import { overlap, percentile, timed } from './latency-stats';
import { clusteredSpace, prng, question, syntheticMemories } from './synthetic-corpus';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    dims: { type: 'string', default: '512' },
  },
});
const n = Number(values.n);
const queries = Number(values.queries);
const seed = Number(values.seed);
const dims = Number(values.dims);
const K = 10;

const core = await makeTestCore();
try {
  const ctx = core.ctx;
  const now = new Date();
  const space = clusteredSpace(seed, dims, 24);
  const rows = [...syntheticMemories({ n, seed: seed + 1, now, space })].map((m) => ({ ...m, embedding: m.embedding! }));
  console.log(`importing ${n} memories (${dims}-d vectors)…`);
  const imp = await importMemories(ctx, 'main', rows);
  console.log(
    `import: ${(n / (imp.ms.insert / 1000)).toFixed(0)} rows/s insert (${(imp.ms.insert / 1000).toFixed(1)} s), ` +
      `HNSW ${imp.rebuiltIndex ? `rebuilt in ${(imp.ms.index / 1000).toFixed(1)} s` : 'kept'}`,
  );
  await ctx.db.exec('ANALYZE memories');

  const rnd = prng(seed + 2);
  const qs = Array.from({ length: queries }, () => ({ query: question(rnd), vector: space.sample(rnd) }));
  const cases: { label: string; args: (q: (typeof qs)[number]) => RecallArgs }[] = [
    { label: 'bm25, text only', args: (q) => ({ persona: 'main', query: q.query, queryEmbedding: null }) },
    { label: 'bm25, with vector', args: (q) => ({ persona: 'main', query: q.query, queryEmbedding: q.vector }) },
    { label: 'ts_rank, with vector', args: (q) => ({ persona: 'main', query: q.query, queryEmbedding: q.vector, variant: 'ts_rank' }) },
  ];
  const table: Record<string, string | number>[] = [];
  for (const c of cases) {
    const fast: number[] = [];
    const exact: number[] = [];
    const agree: number[] = [];
    for (const q of qs) {
      const args = { ...c.args(q), limit: K, kinds: ['memory' as const] };
      const a = await timed(() => recall(ctx, args));
      const b = await timed(() => exactRecall(ctx, args));
      fast.push(a.ms);
      exact.push(b.ms);
      const ids = (hits: RecallHit[]) => hits.map((h) => h.id);
      agree.push(overlap(ids(a.value), ids(b.value)));
      if (agree.length % 50 === 0) process.stderr.write(`  ${c.label}: ${agree.length}/${qs.length} queries\n`);
    }
    table.push({
      case: c.label,
      'recall p50 ms': percentile(fast, 50).toFixed(1),
      'recall p95 ms': percentile(fast, 95).toFixed(1),
      'exact scan p50 ms': percentile(exact, 50).toFixed(1),
      'exact scan p95 ms': percentile(exact, 95).toFixed(1),
      [`top-${K} agreement`]: (agree.reduce((s, x) => s + x, 0) / agree.length).toFixed(4),
      'queries < 1.0': agree.filter((x) => x < 1).length,
    });
  }
  console.log(`\nrecall over ${n} memories, ${queries} queries, top ${K}`);
  console.table(table);
} finally {
  await core.dispose();
}
