// What keeping BM25's own term counts (migrations/0019, docs/ranking.md "Without pg_textsearch")
// adds to a single memory write: `npx tsx bench/term-stats-writes.ts [--writes 300] [--rounds 3]`.
// On one throwaway database, blocks of single writes (writeMemory, as the app writes) alternate
// between the counting triggers on and off (ALTER TABLE … DISABLE TRIGGER, this bench only);
// p50/p95 per setting, the median over rounds, with the load average.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { writeMemory } from '../src/core/memories/mutate';
import { makeTestCore } from '../src/core/testing/core';
import { keepOwnTermStats } from '../src/core/testing/term-stats';
import { prng, sentence } from '../src/core/testing/synthetic-corpus';
import { percentile, timed } from './latency-stats';

const { values } = parseArgs({ options: { writes: { type: 'string', default: '300' }, rounds: { type: 'string', default: '3' } } });
const writes = Number(values.writes);
const rounds = Number(values.rounds);
const core = await makeTestCore({ queues: {} });
await keepOwnTermStats(core.ctx.db);
const rnd = prng(3);
const triggers = ['insert', 'update', 'delete'].map((e) => `memories_bm25_stats_${e}`);
const figures: Record<'on' | 'off', { p50: number[]; p95: number[] }> = { on: { p50: [], p95: [] }, off: { p50: [], p95: [] } };
try {
  console.log(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (let r = 0; r < rounds; r++) {
    for (const setting of r % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      await core.ctx.db.exec(triggers.map((t) => `ALTER TABLE memories ${setting === 'on' ? 'ENABLE' : 'DISABLE'} TRIGGER ${t};`).join(' '));
      const ms: number[] = [];
      for (let i = 0; i < writes; i++) {
        ms.push((await timed(() => writeMemory(core.ctx, { persona: 'main', content: sentence(rnd), importance: 5 }))).ms);
      }
      figures[setting].p50.push(percentile(ms, 50));
      figures[setting].p95.push(percentile(ms, 95));
    }
  }
  const med = (x: number[]) => percentile(x, 50).toFixed(2);
  console.table({
    'term-count triggers on': { 'write p50 ms': med(figures.on.p50), 'write p95 ms': med(figures.on.p95) },
    'term-count triggers off': { 'write p50 ms': med(figures.off.p50), 'write p95 ms': med(figures.off.p95) },
  });
  console.log(`(${writes} writes per block, ${rounds} rounds, medians over rounds; load average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')})`);
} finally {
  await core.dispose();
}
