// Document recall: `npm run bench:knowledge -- [--data DIR] [--json FILE] [--rounds N]`
// `--docs a,b` keeps only those documents and their questions (a quicker, smaller look; not the set's figures).
// Ingests the docs-dev set (8 long documents, 3 of them PDFs) into a fresh core through the production
// path (knowledge.ingest: the parse worker with pdfjs, chunking, the embedding queue with the built-in
// model), asks its 64 questions through production `recall` with kinds ['knowledge'] (limit 10), and
// scores the chunk texts recall returns with the set's own matching rule (its lib.mjs). Prints
// R@1/R@3/R@5/R@10/MRR overall, per question type and per document, next to plain BM25 (the set's
// own, k1 1.2 b 0.75) over the very chunks Hearth stored; the time until every document is searchable
// and fully embedded; and recall p50/p95 (the query vector computed beforehand, so the figure is the
// recall alone).
// `--vector-cache DIR` (bench-only, for iterating on ranking): vectors are kept on disk in DIR keyed by
// model + exact text, and a text seen before is not given to the model again, so a change to chunking or
// scoring is measured in a minute or two; the ingest time then is NOT the model's (the run says so).
// `--why` prints, for each question not answered at rank 1, the first correct chunk's and the rank-1
// chunk's text score, cosine and best window (from the exact scan), so the causes can be read.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { RecallHit } from '../src/shared/api';
import { type Core, createCore } from '../src/core/index';
import { watchIngests } from './ingest-watch';
import { exactRecall } from '../src/core/testing/exact-recall';
import { recall } from '../src/core/recall/recall';
import { cacheVectors } from './vector-cache';
import { normaliseText } from '../src/core/text/normalise';
import { isHeading } from '../src/core/knowledge/headings';
import { percentile } from './latency-stats';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    json: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    /** Only these documents (comma-separated names without extension) and their questions: a quicker look. */
    docs: { type: 'string' },
    'embed-timeout': { type: 'string', default: '900' },
    'vector-cache': { type: 'string' },
    why: { type: 'boolean', default: false },
    /** Writes the stored chunks and windows (lexeme counts, vectors) and the questions to FILE for offline study. */
    dump: { type: 'string' },
  },
});

// ---- the data set ------------------------------------------------------------------------------

const SET = join('shared', 'bench-data', 'docs-dev');

/** --data, else `../shared/bench-data/docs-dev` from the repo, else the same path from any parent folder (worktrees). */
function dataDir(): string {
  if (values.data) return resolve(values.data);
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  for (let dir = dirname(repo); ; dir = dirname(dir)) {
    if (existsSync(join(dir, SET, 'questions.jsonl'))) return join(dir, SET);
    if (dirname(dir) === dir) return resolve(repo, '..', SET);
  }
}

const dir = dataDir();
if (!existsSync(join(dir, 'questions.jsonl')) || !existsSync(join(dir, 'docs')) || !existsSync(join(dir, 'lib.mjs'))) {
  console.error(
    `bench:knowledge: no document set at ${dir} (it needs questions.jsonl, docs/ and lib.mjs).\n` +
      `Pass its folder with --data DIR (the docs-dev set, normally ../shared/bench-data/docs-dev next to the repo).`,
  );
  process.exit(2);
}

interface Question {
  id: string;
  doc: string;
  question: string;
  answers: string[];
  type: string;
}
interface Metrics {
  n: number;
  r1: number;
  r3: number;
  r5: number;
  r10: number;
  mrr: number;
}
/** The set's own scoring code: the matching rule, a plain BM25 and the metrics, used as they are. */
interface SetLib {
  firstCorrect(hits: { content: string }[], answers: string[]): number | null;
  bm25Index(chunks: { content: string }[]): { search(q: string, limit: number): { content: string }[] };
  metrics(ranks: (number | null)[]): Metrics;
}
const lib = (await import(pathToFileURL(join(dir, 'lib.mjs')).href)) as SetLib;

const only = values.docs ? new Set(values.docs.split(',').map((d) => d.trim())) : null;
const docOf = (file: string) => file.replace(/\.(md|pdf)$/, '');
const questions: Question[] = readFileSync(join(dir, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Question)
  .filter((q) => !only || only.has(q.doc));
const files = readdirSync(join(dir, 'docs'))
  .filter((f) => /\.(md|pdf)$/.test(f) && (!only || only.has(docOf(f))))
  .sort();

const rounds = Math.max(1, Number(values.rounds));
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const result: Record<string, unknown> = { data: dir, questions: questions.length, documents: files.length, cores: cpus().length };

// ---- ingest through the production path -----------------------------------------------------------

async function ingestAll(core: Core): Promise<{ searchableMs: number; embeddedMs: number; chunks: number }> {
  const watch = watchIngests(core);
  const start = performance.now();
  const ids: string[] = [];
  for (const f of files) ids.push((await core.call('knowledge.ingest', { persona: 'main', path: join(dir, 'docs', f) })).jobId);
  const jobs = await watch.settled(ids);
  watch.stop();
  const failed = jobs.filter((j) => j.state !== 'completed');
  if (failed.length) throw new Error(`ingest failed: ${failed.map((j) => j.lastError).join('; ')}`);
  const searchableMs = performance.now() - start;
  const limit = Number(values['embed-timeout']) * 1000;
  let chunks = 0;
  for (;;) {
    const sources = await core.call('knowledge.listSources', { persona: 'main' });
    chunks = sources.reduce((n, x) => n + x.chunks, 0);
    if (sources.length === files.length && sources.every((x) => x.embedded >= x.chunks)) break;
    if (performance.now() - start > limit) throw new Error(`not fully embedded after ${values['embed-timeout']} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { searchableMs, embeddedMs: performance.now() - start, chunks };
}

// ---- scoring ----------------------------------------------------------------------------------------

type Ranks = Map<string, number | null>;

function table(rows: { system: string; set: string; m: Metrics }[]): string {
  const pct = (x: number) => (100 * x).toFixed(1);
  const out = ['| system | set | n | R@1 | R@3 | R@5 | R@10 | MRR |', '| --- | --- | --- | --- | --- | --- | --- | --- |'];
  for (const { system, set, m } of rows) {
    out.push(`| ${system} | ${set} | ${m.n} | ${pct(m.r1)} | ${pct(m.r3)} | ${pct(m.r5)} | ${pct(m.r10)} | ${m.mrr.toFixed(3)} |`);
  }
  return out.join('\n');
}

function breakdown(ranks: Ranks, qs: Question[] = questions): Record<string, Metrics> {
  const of = (sel: Question[]) => lib.metrics(sel.map((q) => ranks.get(q.id) ?? null));
  const out: Record<string, Metrics> = { all: of(qs) };
  for (const t of [...new Set(qs.map((q) => q.type))].sort()) out[t] = of(qs.filter((q) => q.type === t));
  return out;
}

// ---- why a question missed rank 1 ---------------------------------------------------------------

async function explainMisses(core: Core, misses: Question[], vectors: Float32Array[]): Promise<void> {
  console.log('\nwhy (exact scan over every chunk; text = scaled BM25 of the key, cos = best window\'s):');
  const short = (t: string, n = 110) => JSON.stringify(t.replace(/\s+/g, ' ').slice(0, n));
  for (const q of misses) {
    const all = await exactRecall(core.ctx, {
      persona: 'main', query: q.question, kinds: ['knowledge'], limit: 10_000, queryEmbedding: vectors[questions.indexOf(q)]!,
    });
    const gold = lib.firstCorrect(all, q.answers);
    const line = (label: string, h: RecallHit | undefined, rank: number | null) => {
      if (!h) return `    ${label}: none`;
      const c = h.score.cosine;
      const w = h.match?.start !== undefined && h.match.end !== undefined ? short(h.content.slice(h.match.start, h.match.end)) : '-';
      return `    ${label} #${rank} ${h.source}#${h.chunkIndex}: final ${h.score.final.toFixed(3)} text ${h.score.text?.toFixed(3)} cos ${c === null ? '-' : c.toFixed(3)} window ${w}`;
    };
    console.log(`  ${q.id} (${q.type}, ${q.doc}) ${short(q.question, 200)} — answer ${short(q.answers[0]!, 70)}`);
    console.log(line('gold', gold ? all[gold - 1] : undefined, gold));
    console.log(line('top ', all[0], 1));
  }
}

// ---- the stored chunks and windows, for offline study (--dump) ----------------------------------

async function dump(core: Core, file: string, vectors: Float32Array[]): Promise<void> {
  const db = core.ctx.db;
  const tf = (col: string) => `(SELECT json_object_agg(u.lexeme, cardinality(u.positions)) FROM unnest(to_tsvector('english', ${col})) u)`;
  const vec = (v: string | null) => (v ? (JSON.parse(v) as number[]).slice(0, 512) : null);
  const { rows: chunks } = await db.query<{ id: string; source: string; chunk_index: number; content: string; key: string; tf: Record<string, number>; v: string | null }>(
    `SELECT id, source, chunk_index, content, search_key AS key, ${tf('search_key')} AS tf, embedding::text AS v FROM knowledge_chunks WHERE persona = 'main' ORDER BY source, chunk_index`,
  );
  const { rows: windows } = await db.query<{ chunk_id: string; window_index: number; start_at: number; end_at: number; key: string; tf: Record<string, number>; v: string | null }>(
    `SELECT chunk_id, window_index, start_at, end_at, search_key AS key, ${tf('search_key')} AS tf, embedding::text AS v FROM knowledge_windows WHERE persona = 'main' ORDER BY chunk_id, window_index`,
  );
  // The words of each chunk's headings (the key's context lines and the headings inside the text): to study weighting them.
  const headingTf: Record<string, Record<string, number> | null> = {};
  for (const c of chunks) {
    const context = c.key.includes('\n\n') ? c.key.slice(0, c.key.indexOf('\n\n')) : '';
    const inside = c.content.split(/\n\s*\n/).map((x) => x.trim()).filter((x) => isHeading(x));
    const { rows } = await db.query<{ tf: Record<string, number> | null }>(`SELECT ${tf('$1')} AS tf`, [[context, ...inside].join('\n')]);
    headingTf[c.id] = rows[0]?.tf ?? null;
  }
  const qs = [];
  for (const [i, q] of questions.entries()) {
    const { rows } = await db.query<{ tf: Record<string, number> | null }>(`SELECT ${tf('$1')} AS tf`, [normaliseText(q.question)]);
    const gold = chunks.filter((c) => lib.firstCorrect([c], q.answers) === 1).map((c) => c.id);
    qs.push({ ...q, tf: rows[0]?.tf ?? {}, v: [...vectors[i]!], gold });
  }
  writeFileSync(
    file,
    JSON.stringify({
      chunks: chunks.map((c) => ({ ...c, v: vec(c.v), htf: headingTf[c.id] })),
      windows: windows.map((w) => ({ ...w, v: vec(w.v) })),
      questions: qs,
    }),
  );
  console.log(`dumped ${chunks.length} chunks, ${windows.length} windows, ${qs.length} questions to ${file}`);
}

// ---- the run ---------------------------------------------------------------------------------------

const tmp = mkdtempSync(join(tmpdir(), 'hearth-bench-knowledge-'));
try {
  console.log(`docs-dev: ${files.length} documents, ${questions.length} questions (${dir}); load average ${load()} on ${cpus().length} cores`);
  const core = await createCore({ dataDir: join(tmp, 'data'), dailyBackups: false });
  const cache = values['vector-cache'] ? cacheVectors(core.ctx.embedder.current('no-persona'), resolve(values['vector-cache'])) : null;
  try {
    const ingest = await ingestAll(core);
    console.log(
      `ingest: all searchable by text ${s(ingest.searchableMs)}, fully embedded (${core.ctx.embedder.model()}) ${s(ingest.embeddedMs)}; ` +
        `${ingest.chunks} chunks; load average ${load()}` +
        (cache ? `\n  (--vector-cache: ${cache.hits()} texts from the cache, ${cache.misses()} embedded: NOT the model's time)` : ''),
    );
    Object.assign(result, { searchableS: ingest.searchableMs / 1000, embeddedS: ingest.embeddedMs / 1000, chunks: ingest.chunks, model: core.ctx.embedder.model() });

    // The query vectors come from the same model as the chunks', computed up front: the recall timings
    // below then hold no model time, and a busy machine cannot push a query into the text-only fallback.
    const provider = core.ctx.embedder.current('no-persona');
    const vectors = await provider.embed(questions.map((q) => q.question));

    const hearth: Ranks = new Map();
    const latencies: { p50: number; p95: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const ms: number[] = [];
      for (const [i, q] of questions.entries()) {
        const t = performance.now();
        const hits: RecallHit[] = await recall(core.ctx, { persona: 'main', query: q.question, kinds: ['knowledge'], limit: 10, queryEmbedding: vectors[i]! });
        ms.push(performance.now() - t);
        hearth.set(q.id, lib.firstCorrect(hits, q.answers));
      }
      latencies.push({ p50: percentile(ms, 50), p95: percentile(ms, 95) });
    }
    result.hearthRanks = Object.fromEntries(hearth);
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const p50 = med(latencies.map((l) => l.p50));
    const p95 = med(latencies.map((l) => l.p95));
    console.log(`recall (limit 10, query vector given): p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (median of ${rounds} rounds × ${questions.length}); load average ${load()}`);
    Object.assign(result, { recallP50Ms: p50, recallP95Ms: p95 });

    // Plain BM25 over exactly the chunks Hearth stored.
    const { rows: chunks } = await core.ctx.db.query<{ content: string }>(
      `SELECT content FROM knowledge_chunks WHERE persona = 'main' ORDER BY source, chunk_index`,
    );
    const index = lib.bm25Index(chunks);
    const bm25: Ranks = new Map(questions.map((q) => [q.id, lib.firstCorrect(index.search(q.question, 10), q.answers)]));

    const hb = breakdown(hearth);
    const bb = breakdown(bm25);
    const rows: { system: string; set: string; m: Metrics }[] = [];
    for (const set of Object.keys(hb)) rows.push({ system: 'Hearth recall', set, m: hb[set]! }, { system: 'BM25, same chunks', set, m: bb[set]! });
    console.log(table(rows));

    const perDoc = files.map(docOf).map((d) => {
      const qs = questions.filter((q) => q.doc === d);
      return { system: `Hearth / BM25`, set: d, h: breakdown(hearth, qs).all!, b: breakdown(bm25, qs).all! };
    });
    console.log('\nper document (R@1 Hearth / BM25, MRR Hearth / BM25):');
    for (const p of perDoc) console.log(`  ${p.set}: ${p.h.r1.toFixed(3)} / ${p.b.r1.toFixed(3)}, ${p.h.mrr.toFixed(3)} / ${p.b.mrr.toFixed(3)}`);

    // Question by question (README: with n = 64 compare ranks, not only headlines).
    const rk = (r: number | null | undefined) => r ?? 11;
    const better = questions.filter((q) => rk(hearth.get(q.id)) < rk(bm25.get(q.id))).length;
    const worse = questions.filter((q) => rk(hearth.get(q.id)) > rk(bm25.get(q.id))).length;
    console.log(`\nquestion by question against BM25: Hearth ranks the answer higher ${better}×, lower ${worse}×, equal ${questions.length - better - worse}×`);
    const misses = questions.filter((q) => rk(hearth.get(q.id)) > 1);
    console.log(`not at rank 1 (${misses.length}): ${misses.map((q) => `${q.id}(${q.type}) ${hearth.get(q.id) ?? 'miss'}/${bm25.get(q.id) ?? 'miss'}`).join(', ')}`);
    Object.assign(result, { hearth: hb, bm25: bb, againstBm25: { better, worse }, bm25Ranks: Object.fromEntries(bm25), loadAverage: load() });
    if (values.why) await explainMisses(core, misses, vectors);
    if (values.dump) await dump(core, values.dump, vectors);
  } finally {
    cache?.save();
    await core.close();
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
