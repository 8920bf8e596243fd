// Knowledge recall latency at scale: `npx tsx bench/knowledge-scale.ts [--chunks 10000] [--queries 60] [--json FILE]`
// Two fresh databases with the same N synthetic chunks (~1,500 characters, 512-d clustered vectors of the
// built-in model's tag, written directly — no model runs): one where every chunk has its sentence windows
// (≈ 6 per chunk, vectors near their chunk's), one without windows (as data stored before migration 0014,
// or imported: the chunk's own vector and key). The same queries (a text and a vector each) go through
// production `recall` (kinds ['knowledge'], limit 10) on both, three rounds; p50/p95 are the medians of the
// rounds. Prints the load average with each figure: on a busy machine compare the two rows, not the ms.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Core, createCore } from '../src/core/index';
import { encodeVector } from '../src/core/db/vector';
import { chunkDocument } from '../src/core/knowledge/chunk';
import { keyedChunks } from '../src/core/knowledge/keyed-chunks';
import { replaceSource } from '../src/core/knowledge/store';
import { EMBEDDING_DEFAULTS, modelTag } from '../src/core/providers/embeddings/config';
import { recall } from '../src/core/recall/recall';
import { clusteredSpace, prng, question, sentence } from '../src/core/testing/synthetic-corpus';
import { percentile } from './latency-stats';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'string' },
  },
});
const N = Number(values.chunks);
const Q = Number(values.queries);
const ROUNDS = Number(values.rounds);
const MODEL = modelTag(EMBEDDING_DEFAULTS.local!);
const DIMS = EMBEDDING_DEFAULTS.local!.dimensions;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

function jitter(rnd: () => number, v: Float32Array, by: number): Float32Array {
  const out = v.map((x) => x + (rnd() - 0.5) * by);
  const n = Math.hypot(...out);
  return out.map((x) => x / n);
}

async function fill(core: Core, windows: boolean): Promise<void> {
  const rnd = prng(11);
  const space = clusteredSpace(5, DIMS, 40);
  const SOURCES = 20;
  for (let s = 0; s < SOURCES; s++) {
    const text = Array.from({ length: N / SOURCES }, () => Array.from({ length: 14 }, () => sentence(rnd)).join(' ')).join('\n\n');
    const chunks = keyedChunks(chunkDocument([{ text }], { size: 1500, overlap: 100 }), `source-${s}.md`).map((c) =>
      windows ? c : { ...c, windows: [] },
    );
    await replaceSource(core.ctx, { persona: 'main', source: `source-${s}.md`, chunks });
  }
  // Vectors written directly (the model is not what is measured); the queued embedding jobs are dropped.
  await core.ctx.db.query(`DELETE FROM jobs WHERE queue = 'embeddings'`);
  const { rows } = await core.ctx.db.query<{ id: string }>('SELECT id FROM knowledge_chunks ORDER BY source, chunk_index');
  for (const { id } of rows) {
    const v = space.sample(rnd);
    await core.ctx.db.query('UPDATE knowledge_chunks SET embedding = $2, embedding_model = $3 WHERE id = $1', [id, encodeVector(v), MODEL]);
    if (windows) {
      const { rows: ws } = await core.ctx.db.query<{ window_index: number }>('SELECT window_index FROM knowledge_windows WHERE chunk_id = $1', [id]);
      for (const w of ws) {
        await core.ctx.db.query('UPDATE knowledge_windows SET embedding = $3, embedding_model = $4 WHERE chunk_id = $1 AND window_index = $2', [
          id,
          w.window_index,
          encodeVector(jitter(rnd, Float32Array.from(v), 0.3)),
          MODEL,
        ]);
      }
    }
  }
}

async function measure(core: Core): Promise<{ p50: number; p95: number }> {
  const rnd = prng(99);
  const space = clusteredSpace(5, DIMS, 40);
  const qs = Array.from({ length: Q }, () => ({ text: question(rnd), vector: space.sample(rnd) }));
  for (const q of qs.slice(0, 5)) await recall(core.ctx, { persona: 'main', query: q.text, kinds: ['knowledge'], limit: 10, queryEmbedding: q.vector });
  const rounds: { p50: number; p95: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const ms: number[] = [];
    for (const q of qs) {
      const t = performance.now();
      await recall(core.ctx, { persona: 'main', query: q.text, kinds: ['knowledge'], limit: 10, queryEmbedding: q.vector });
      ms.push(performance.now() - t);
    }
    rounds.push({ p50: percentile(ms, 50), p95: percentile(ms, 95) });
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { p50: med(rounds.map((r) => r.p50)), p95: med(rounds.map((r) => r.p95)) };
}

const result: Record<string, unknown> = { chunks: N, queries: Q, rounds: ROUNDS, cores: cpus().length };
for (const windows of [false, true]) {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-kscale-'));
  const core = await createCore({ dataDir: join(dir, 'data'), dailyBackups: false, queues: {} });
  try {
    const t = performance.now();
    await fill(core, windows);
    const { rows } = await core.ctx.db.query<{ c: number; w: number }>(
      'SELECT (SELECT count(*) FROM knowledge_chunks)::int AS c, (SELECT count(*) FROM knowledge_windows)::int AS w',
    );
    console.log(`${windows ? 'with windows' : 'without windows'}: ${rows[0]!.c} chunks, ${rows[0]!.w} windows, filled in ${((performance.now() - t) / 1000).toFixed(0)} s; load average ${load()}`);
    const m = await measure(core);
    console.log(`  recall (limit 10, kinds knowledge): p50 ${m.p50.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms; load average ${load()}`);
    result[windows ? 'withWindows' : 'withoutWindows'] = { ...m, chunks: rows[0]!.c, windows: rows[0]!.w, load: load() };
  } finally {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
