// What the steps after scoring cost (stream-expansion.ts, diversity.ts; docs/ranking.md "After scoring"):
//   npm run bench:recall -- --n 10000 --db DIR     (builds the database once)
//   npx tsx bench/final-list-latency.ts --db DIR [--queries 100] [--rounds 3]
// The same questions run with the spread off and with each way of spreading, in alternating
// rounds on one database (so load drifts hit every setting alike); per setting the median over
// rounds of p50 and p95, with the load average. The spread is forced on for every question (the
// worst case: it may be limited to list questions).
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createCore } from '../src/core/index';
import { recall } from '../src/core/recall/recall';
import type { RecallTuning } from '../src/core/recall/tuning';
import { clusteredSpace, prng, question } from '../src/core/testing/synthetic-corpus';
import { percentile } from './latency-stats';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    queries: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    dims: { type: 'string', default: '512' },
  },
});
if (!values.db) {
  console.error('--db DIR: a database built by bench:recall --db DIR');
  process.exit(2);
}
const settings: [string, Partial<RecallTuning>][] = [
  ['both off', { expandShare: 0, dayCap: 0, mmr: 0 }],
  ['stream expansion 0.95, 2 seeds', { expandShare: 0.95, expandSeeds: 2, dayCap: 0, mmr: 0 }],
  ['mmr 0.8', { expandShare: 0, mmr: 0.8 }],
];
const core = await createCore({ dataDir: values.db, queues: {} });
try {
  const seed = Number(values.seed);
  // Another seed than bench:recall's own questions, the same kind of question and vector.
  const rnd = prng(seed + 7);
  const space = clusteredSpace(seed, Number(values.dims), 24);
  const qs = Array.from({ length: Number(values.queries) }, () => ({ query: question(rnd), vector: space.sample(rnd) }));
  const ask = (q: (typeof qs)[number], tuning: Partial<RecallTuning>) =>
    recall(core.ctx, { persona: 'main', query: q.query, queryEmbedding: q.vector, limit: 10, kinds: ['memory'], tuning });
  for (const q of qs.slice(0, 5)) for (const [, t] of settings) await ask(q, t); // warm-up
  const runs = new Map(settings.map(([l]) => [l, [] as { p50: number; p95: number; load: number }[]]));
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const [label, t] of settings) {
      const ms: number[] = [];
      for (const q of qs) {
        const t0 = performance.now();
        await ask(q, t);
        ms.push(performance.now() - t0);
      }
      runs.get(label)!.push({ p50: percentile(ms, 50), p95: percentile(ms, 95), load: loadavg()[0]! });
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${qs.length} hybrid recalls (limit 10) per setting and round, ${values.rounds} rounds alternating`);
  console.table(
    Object.fromEntries(
      [...runs].map(([l, rs]) => [
        l,
        {
          'p50 ms (median of rounds)': median(rs.map((x) => x.p50)).toFixed(1),
          'p95 ms (median of rounds)': median(rs.map((x) => x.p95)).toFixed(1),
          'load (1 min) per round': rs.map((x) => x.load.toFixed(1)).join(' / '),
        },
      ]),
    ),
  );
} finally {
  await core.close();
}
