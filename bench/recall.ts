// Recall at scale: `npm run bench:recall -- --n 50000 --personas 4 [--queries 200] [--exact-queries 20] [--profile] [--db DIR] [--json FILE] [--text-index both|term_stats]`
// A seeded synthetic corpus goes in through the core's bulk import: --n
// memories in the measured persona ("main") plus --others memories (default
// n/4) spread evenly over the other personas, so the persona filter is real.
// Every case is persona-filtered (the other personas' rows share the indexes).
// Then, on a real core with no job queues running (nothing embeds meanwhile):
// recall p50/p95 per case, top-10 agreement with the exact full scan, the exact
// scan's own p50/p95 (on --exact-queries of the queries: it is slow at scale),
// a JS brute-force cosine top-10 over the persona's vectors (the floor for
// exact search), single-write p50/p95, bulk import rows/s, index build time,
// size on disk, peak RSS and the core thread's largest event-loop gap.
// --db DIR keeps the database there and reuses it on the next run with the
// same --n/--personas/--others/--seed/--dims (import figures come from the run that built it).
// --text-index both: every case also runs with BM25 from Hearth's own term statistics (what a
// PostgreSQL server without pg_textsearch uses, docs/ranking.md), on the same database in the same
// run, and says how many queries got the very hits the bm25 index gave; term_stats: only that way.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RecallHit } from '../src/shared/api';
import { type ImportBatch, importBatches } from '../src/core/memories/import';
import { writeMemory } from '../src/core/memories/mutate';
import { createPersona } from '../src/core/personas/store';
import { exactRecall } from '../src/core/testing/exact-recall';
import { recall, type RecallArgs, searchMemories } from '../src/core/recall/recall';
import type { TextIndexKind } from '../src/core/recall/text-index';
import { loadavg } from 'node:os';
import { createCore } from '../src/core/index';
import { makeTestCore } from '../src/core/testing/core';
import { keepOwnTermStats } from '../src/core/testing/term-stats';
import { profileRecall } from './recall-profile';
import { bruteForceTopK, type LoopGap, loopGapMonitor } from './floor';
import { overlap, percentile, timed } from './latency-stats';
import { clusteredSpace, prng, question, sentence, syntheticMemories } from '../src/core/testing/synthetic-corpus';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    personas: { type: 'string', default: '4' },
    others: { type: 'string' },
    queries: { type: 'string', default: '200' },
    'exact-queries': { type: 'string' },
    writes: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    dims: { type: 'string', default: '512' },
    json: { type: 'string' },
    profile: { type: 'boolean', default: false },
    db: { type: 'string' },
    'text-index': { type: 'string' },
  },
});
const textIndexes = { undefined: [undefined], both: [undefined, 'term_stats'], term_stats: ['term_stats'] }[String(values['text-index'])] as
  | (TextIndexKind | undefined)[]
  | undefined;
if (!textIndexes) throw new Error('--text-index takes both or term_stats');
const n = Number(values.n);
const personas = Number(values.personas);
const others = personas > 1 ? Number(values.others ?? Math.round(n / 4)) : 0;
const queries = Number(values.queries);
// The exact scan costs ~1 s a query at 50k: at scale, agreement is measured on a subset.
const exactQueries = Math.min(queries, Number(values['exact-queries'] ?? (n <= 10_000 ? queries : 20)));
const writes = Number(values.writes);
const seed = Number(values.seed);
const dims = Number(values.dims);
const K = 10;
const COLD_SHOWN = 10;
for (const [k, v] of Object.entries({ n, personas, others, queries, exactQueries, writes, dims })) {
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${k} takes a whole number ≥ 0`);
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const f1 = (x: number) => Number(x.toFixed(1));

/** With --expose-gc (as `npm run bench:recall` runs): collect now, so no earlier garbage is collected during a watched stretch. */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function benchCore() {
  if (!values.db) return makeTestCore({ queues: {} });
  const dataDir = values.db;
  const reused = existsSync(join(dataDir, 'pgdata', 'PG_VERSION'));
  mkdirSync(dataDir, { recursive: true });
  const core = await createCore({ dataDir, queues: {} });
  return Object.assign(core, { dataDir, reused, dispose: () => core.close() });
}

const core = await benchCore();
// Own term statistics are kept only where pg_textsearch is missing: start them here to compare.
if (textIndexes.includes('term_stats')) await keepOwnTermStats(core.ctx.db);
const reused = 'reused' in core && core.reused;
const result: Record<string, unknown> = { n, personas, others, queries, exactQueries, writes, dims, seed };
try {
  const ctx = core.ctx;
  const now = new Date();
  const space = clusteredSpace(seed, dims, 24);
  let batches: ImportBatch[] = reused ? [] : [{ persona: 'main', rows: [...syntheticMemories({ n, seed: seed + 1, now, space })] }];
  for (let i = 1; i < personas && !reused; i++) {
    const { id } = await createPersona(ctx.db, `bench other ${i}`);
    const share = Math.floor(others / (personas - 1)) + (i <= others % (personas - 1) ? 1 : 0);
    batches.push({ persona: id, rows: [...syntheticMemories({ n: share, seed: seed + 10 + i, now, space })] });
  }
  const total = n + others;
  let imp: Awaited<ReturnType<typeof importBatches>> | null = null;
  let importWallMs = 0;
  if (reused) {
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories`);
    if ((rows[0]?.n ?? 0) < total) throw new Error(`${values.db} holds ${rows[0]?.n} memories, not ${total}: built with other parameters`);
    console.log(`reusing the database in ${values.db} (import figures: see the run that built it)`);
  } else {
    console.log(`importing ${total} memories (${n} in "main", ${others} over ${personas - 1} other personas; ${dims}-d vectors)…`);
    const t0 = performance.now();
    imp = await importBatches(ctx, batches);
    importWallMs = performance.now() - t0;
    await ctx.db.exec('ANALYZE memories');
  }
  const du = Number(execFileSync('du', ['-sb', core.dataDir], { encoding: 'utf8' }).split('\t')[0]);
  result.import = imp && {
    rows: total,
    insertRowsPerS: Math.round(total / (imp.ms.insert / 1000)),
    // Rows/s until text-searchable: the insert plus the bm25/GIN rebuild, excluding the HNSW build.
    textSearchableRowsPerS: Math.round(total / ((imp.ms.insert + imp.ms.textIndexes) / 1000)),
    allIndexesRowsPerS: Math.round(total / ((imp.ms.insert + imp.ms.textIndexes + imp.ms.index) / 1000)),
    insertS: f1(imp.ms.insert / 1000),
    textIndexBuildS: f1(imp.ms.textIndexes / 1000),
    hnswBuildS: f1(imp.ms.index / 1000),
    wallS: f1(importWallMs / 1000),
    diskMB: mb(du),
  };
  if (imp) console.log('import:', result.import);
  else result.diskMB = mb(du);

  // Nothing of the corpus stays on this thread while it is watched, and its garbage is collected
  // now (with --expose-gc, as `npm run bench:recall` runs it): 100k rows and their vectors would make
  // this thread's garbage collections, and so its event-loop gaps, far longer than the app's.
  batches = [];
  collectGarbage();
  const rnd = prng(seed + 2);
  const qs = Array.from({ length: queries }, () => ({ query: question(rnd), vector: space.sample(rnd) }));
  // `search`: the memory browser's call (memories.search), which also counts every match.
  const baseCases: { label: string; args: (q: (typeof qs)[number]) => RecallArgs; search?: boolean }[] = [
    { label: 'hybrid: text + vector', args: (q) => ({ persona: 'main', query: q.query, queryEmbedding: q.vector }) },
    { label: 'text only', args: (q) => ({ persona: 'main', query: q.query, queryEmbedding: null }) },
    // The memory browser's filters narrow the candidates inside the SQL (docs/ranking.md, "Filters").
    { label: 'hybrid + category filter', args: (q) => ({ persona: 'main', query: q.query, queryEmbedding: q.vector, filters: { category: 'travel' } }) },
    { label: 'hybrid + importance ≥ 8', args: (q) => ({ persona: 'main', query: q.query, queryEmbedding: q.vector, filters: { importanceMin: 8 } }) },
    { label: 'memories.search: hybrid + match count', args: (q) => ({ persona: 'main', query: q.query, queryEmbedding: q.vector }), search: true },
  ];
  // Each case with the bm25 index and/or with Hearth's own term statistics, one after the other.
  const cases = baseCases.flatMap((c) =>
    textIndexes.map((textIndex) =>
      textIndex ? { ...c, label: `${c.label} [own term stats]`, twin: c.label, args: (q: (typeof qs)[number]) => ({ ...c.args(q), textIndex }) } : { ...c, twin: undefined },
    ),
  );
  const hitsOf = new Map<string, RecallHit[][]>();
  console.log(`load average at the start of recall: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const table: Record<string, string | number>[] = [];
  const rows: Record<string, unknown>[] = [];
  const gaps: LoopGap[] = [];
  // The first recalls after opening read the indexes from disk into PGlite's buffers: one pass
  // over the queries warms them; its first ones are reported on their own, as cold figures.
  const cold: number[] = [];
  for (const q of qs) cold.push((await timed(() => recall(ctx, { ...cases[0]!.args(q), limit: K, kinds: ['memory'] }))).ms);
  result.coldRecallsMs = cold.slice(0, COLD_SHOWN).map(f1);
  console.log(`first ${COLD_SHOWN} recalls after opening (cold buffers; a warm-up pass, not in the percentiles): ${cold.slice(0, COLD_SHOWN).map((x) => x.toFixed(0)).join(', ')} ms`);
  for (const c of cases) {
    // Production recall only while the core thread is watched; the exact scan (a reference that
    // ships every row back to this thread) runs after, and its garbage is collected before the next case.
    collectGarbage();
    const loop = loopGapMonitor();
    const fast: number[] = [];
    const got: RecallHit[][] = [];
    for (const [i, q] of qs.entries()) {
      const a = await timed(() =>
        c.search ? searchMemories(ctx, { ...c.args(q), limit: K }).then((r) => r.hits) : recall(ctx, { ...c.args(q), limit: K, kinds: ['memory'] }),
      );
      fast.push(a.ms);
      got.push(a.value);
      if ((i + 1) % 50 === 0) process.stderr.write(`  ${c.label}: ${i + 1}/${qs.length} queries\n`);
    }
    gaps.push(loop.stop());
    hitsOf.set(c.label, got);
    const twin = c.twin ? hitsOf.get(c.twin) : undefined;
    // Ids in order: the clock (recency) moves between the two cases, so scores drift by design.
    const sameHits = (a: RecallHit[], b: RecallHit[]) => a.length === b.length && a.every((h, j) => h.id === b[j]!.id);
    const exact: number[] = [];
    const agree: number[] = [];
    const ids = (hits: RecallHit[]) => hits.map((h) => h.id);
    for (const [i, q] of qs.slice(0, exactQueries).entries()) {
      const b = await timed(() => exactRecall(ctx, { ...c.args(q), limit: K, kinds: ['memory'] }));
      exact.push(b.ms);
      agree.push(overlap(ids(got[i]!), ids(b.value)));
    }
    const r = {
      case: c.label,
      recallP50: f1(percentile(fast, 50)),
      recallP95: f1(percentile(fast, 95)),
      exactP50: f1(percentile(exact, 50)),
      exactP95: f1(percentile(exact, 95)),
      agreement: Number((agree.reduce((s, x) => s + x, 0) / agree.length).toFixed(4)),
      belowOne: agree.filter((x) => x < 1).length,
      ...(twin ? { sameAsBm25Index: got.filter((g, j) => sameHits(g, twin[j]!)).length } : {}),
      loadAverage: loadavg()[0]!.toFixed(1),
    };
    rows.push(r);
    table.push({
      case: r.case,
      'recall p50 ms': r.recallP50,
      'recall p95 ms': r.recallP95,
      [`exact scan p50 ms (${exactQueries} q)`]: r.exactP50,
      'exact scan p95 ms': r.exactP95,
      [`top-${K} agreement`]: r.agreement,
      'queries < 1.0': r.belowOne,
      ...(r.sameAsBm25Index !== undefined ? { [`same hits as bm25 index (of ${qs.length})`]: r.sameAsBm25Index } : {}),
      load: r.loadAverage,
    });
  }
  const gap: LoopGap = {
    maxGapMs: Math.max(...gaps.map((g) => g.maxGapMs)),
    delayP99Ms: Math.max(...gaps.map((g) => g.delayP99Ms)),
    delayMaxMs: Math.max(...gaps.map((g) => g.delayMaxMs)),
  };
  result.recall = rows;
  result.coreThreadWhileRecall = gap;

  // The floor for exact vector search: the persona's vectors as Float32Arrays, cosine top-10 in plain JS
  // (on the main thread, so after the event-loop measurement; the seeded corpus is generated again).
  const vectors = [...syntheticMemories({ n, seed: seed + 1, now, space })].map((m) => m.embedding!);
  const bruteMs = qs.map((q) => {
    const t = performance.now();
    bruteForceTopK(vectors, q.vector, K);
    return performance.now() - t;
  });
  result.jsBruteForce = { p50: f1(percentile(bruteMs, 50)), p95: f1(percentile(bruteMs, 95)), vectors: vectors.length };
  table.push({ case: `JS brute-force cosine top-${K} (${vectors.length} vectors)`, 'recall p50 ms': f1(percentile(bruteMs, 50)), 'recall p95 ms': f1(percentile(bruteMs, 95)) });

  if (values.profile) {
    const prof = await profileRecall(ctx, qs.slice(0, 20).map((q) => ({ ...cases[0]!.args(q), limit: K, kinds: ['memory' as const] })));
    console.log(`\nwhere a hybrid recall's time goes (20 queries, per-statement round trips from the core thread; recall p50 ${prof.totalP50} ms):`);
    console.table(prof.statements);
    for (const plan of prof.plans) console.log(`${plan}\n`);
    result.profile = prof;
  }

  // Single writes with the HNSW, GIN and bm25 indexes in place (each commits with its embedding job).
  const wr = prng(seed + 3);
  const writeMs: number[] = [];
  for (let i = 0; i < writes; i++) {
    const w = await timed(() => writeMemory(ctx, { persona: 'main', content: sentence(wr), importance: 1 + Math.floor(wr() * 10) }));
    writeMs.push(w.ms);
  }
  result.write = { p50: f1(percentile(writeMs, 50)), p95: f1(percentile(writeMs, 95)), count: writes };
  result.peakRssMB = mb(process.resourceUsage().maxRSS * 1024);

  console.log(`\nrecall over ${n} memories in the persona (${total} in all, ${personas} personas), ${queries} queries, top ${K}`);
  console.table(table);
  console.table({
    ...(imp ? importFigures(imp, total) : { 'bulk import': 'not measured (database reused)' }),
    'database on disk (du)': `${mb(du)} MB`,
    [`single write p50 / p95 (${writes})`]: `${f1(percentile(writeMs, 50))} / ${f1(percentile(writeMs, 95))} ms`,
    'core thread: largest event-loop gap while recall ran': `${gap.maxGapMs} ms (delay p99 ${gap.delayP99Ms} ms)`,
    'peak RSS (whole process, maxRSS)': `${result.peakRssMB} MB`,
  });
  if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await core.dispose();
}

function importFigures(imp: { ms: { insert: number; textIndexes: number; index: number } }, total: number): Record<string, string> {
  return {
    'bulk import: insert + bm25/GIN build (excl. HNSW)': `${Math.round(total / ((imp.ms.insert + imp.ms.textIndexes) / 1000))} rows/s`,
    'bulk import: insert alone': `${Math.round(total / (imp.ms.insert / 1000))} rows/s (${f1(imp.ms.insert / 1000)} s)`,
    'index builds: bm25 + GIN / HNSW': `${f1(imp.ms.textIndexes / 1000)} s / ${f1(imp.ms.index / 1000)} s`,
    'bulk import incl. all index builds': `${Math.round(total / ((imp.ms.insert + imp.ms.textIndexes + imp.ms.index) / 1000))} rows/s`,
  };
}
