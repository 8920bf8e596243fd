// Recall by meaning on a persona whose imported vectors have not joined the HNSW graph yet
// (docs/import-at-scale.md): N staged memories, then recalls with their own vectors, each while another
// call (memories.get) is issued back to back. Side by side in one run, alternating: the exact pass over the
// staged rows as one statement (the earlier way, its SQL kept here) and in pages (production,
// src/core/recall/staged-pass.ts). Prints each one's time and the longest wait of the other call, with the
// load average.
//   npx tsx bench/staged-pass.ts [--n 50000] [--rounds 10]
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeVector } from '../src/core/db/vector';
import { Params } from '../src/core/recall/params';
import { filterSql } from '../src/core/recall/memory-rows';
import { type StagedScope, stagedTopK } from '../src/core/recall/staged-pass';
import { recall } from '../src/core/recall/recall';
import { makeTestCore } from '../src/core/testing/core';
import type { Queryable } from '../src/core/db/client';
import { importBenchPersona, vector } from './export-data';
import { percentile } from './latency-stats';

const arg = (n: string, d: string) => { const i = process.argv.indexOf(`--${n}`); return i >= 0 ? process.argv[i + 1]! : d; };
const N = Number(arg('n', '20000'));
const ROUNDS = Number(arg('rounds', '10'));
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** The exact pass as one statement over every staged row of the persona (before paging). */
async function oneStatement(q: Queryable, s: StagedScope, k: number): Promise<string[]> {
  const p = new Params();
  const { rows } = await q.query<{ id: string }>(
    `SELECT m.id FROM memories m
     WHERE m.persona = ${p.add(s.persona)} AND m.staged_model = ${p.add(s.model)} AND m.embedding_model IS NULL AND m.embedding IS NOT NULL
       ${s.includeSuperseded ? '' : 'AND m.superseded_by IS NULL'}${filterSql(s, p)}
     ORDER BY m.embedding <=> ${p.add(s.vector)}::vector, m.id LIMIT ${p.add(k)}`,
    p.values,
  );
  return rows.map((r) => r.id);
}

const core = await makeTestCore({ queues: {} });
const db = core.ctx.db;
const model = core.ctx.embedder.model();
const probe = await core.call('memories.write', { persona: 'main', content: 'probe' });
await importBenchPersona(core, N, 0, join(tmpdir(), `hearth-staged-pass-${process.pid}.hearth`));
await db.exec('ANALYZE memories');
console.log(`${N} staged memories; load ${load()}`);

/** Runs `fn` while memories.get is issued back to back; returns fn's time and the longest wait of those calls. */
async function withOtherCalls<T>(fn: () => Promise<T>): Promise<{ ms: number; longest: number; value: T }> {
  let running = true;
  let longest = 0;
  const other = (async () => {
    while (running) {
      const t = performance.now();
      await core.dispatch('memories.get', { id: probe.id });
      longest = Math.max(longest, performance.now() - t);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const t = performance.now();
  const value = await fn();
  const ms = performance.now() - t;
  running = false;
  await other;
  return { ms, longest, value };
}

const ways = {
  'one statement (before)': (s: StagedScope) => oneStatement(db, s, 40),
  'in pages (production)': (s: StagedScope) => stagedTopK(db, s, 40),
};
const times: Record<string, { ms: number[]; longest: number[] }> = {};
let same = 0;
for (let r = 0; r < ROUNDS; r++) {
  const s = { persona: 'bench', model, vector: encodeVector(vector(7_000_000 + r)) };
  const got: string[][] = [];
  const order = r % 2 ? Object.keys(ways).reverse() : Object.keys(ways);
  for (const k of order) {
    const m = await withOtherCalls(() => ways[k as keyof typeof ways](s));
    (times[k] ??= { ms: [], longest: [] }).ms.push(m.ms);
    times[k]!.longest.push(m.longest);
    got.push(m.value);
  }
  if (got[0]!.join() === got[1]!.join()) same++;
}
// A whole recall by meaning on the persona (production), as a person would run one.
const whole = { ms: [] as number[], longest: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  const m = await withOtherCalls(() => recall(core.ctx, { persona: 'bench', query: 'coffee budget', queryEmbedding: vector(8_000_000 + r), limit: 10, kinds: ['memory'] }));
  whole.ms.push(m.ms);
  whole.longest.push(m.longest);
}
const f = (xs: number[]) => `${percentile(xs, 50).toFixed(0)} / ${Math.max(...xs).toFixed(0)}`;
console.log(`\n| ${N} staged rows, ${ROUNDS} queries, p50 / max ms | exact pass | longest wait of another call meanwhile |`);
console.log('|---|---|---|');
for (const [k, t] of Object.entries(times)) console.log(`| ${k} | ${f(t.ms)} | ${f(t.longest)} |`);
console.log(`| whole recall by meaning (production) | ${f(whole.ms)} | ${f(whole.longest)} |`);
console.log(`same top 40 both ways: ${same} of ${ROUNDS}; load average ${load()}`);
await core.dispose();
