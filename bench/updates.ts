// Facts that change (docs/history.md): `npm run bench:updates -- [--facts 300] [--n 1000] [--queries 40] [--span-days 420]
//   [--seed 1] [--vectors local|hashed] [--show N] [--explain N] [--skip-quality] [--profile] [--json FILE]`
//
// Part 1, quality. A seeded, generated set no test tunes to: --facts facts
// about a user and the people and things around them, each changed 1–3 times
// over simulated months, written as memories in time order, plus distractors
// (memories that mention the same things without giving a value, and
// unrelated sentences). Two questions a fact ask for its current value. Each
// goes through the production `recall` (limit 10, memories only) against two
// personas holding the same rows: one with the supersession links a correct
// reviewer would make, one without them (links ignored). Reported: current
// value at rank 1, current value in the top 10, an outdated value ranked above
// the current one (or present while the current one is not).
//
// Vectors come from the configured embedder (the built-in local model by
// default), cached on disk like bench:retrieval's; `--vectors hashed` uses the
// tests' bag-of-words stand-in instead (quick, but only word overlap).
// `--show N` prints the first N questions with their top 5 and what was
// expected. `--explain N` adds, over the first N questions, a diagnostic row
// that is NOT a production figure: the same scores with the recency factor
// taken out (every row scored, then ordered by score / recency), which
// separates what recency costs from what the text and vectors cannot tell
// apart (each question scores every row: slow).
//
// Part 2, latency. Recall p95 over --n synthetic memories with 20 % of them
// superseded, against the same rows with none superseded (--n 50000 for the
// issue's figure; the default keeps the run short). Medians of 3 rounds.
// `--profile` adds where one recall's time goes for each, statement by
// statement, and prints the query plans with 20 % superseded (how the
// `superseded_by IS NULL` filter is applied).
// The machine's load average is printed with every figure.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { RecallHit } from '../src/shared/api';
import type { CoreContext } from '../src/core/context';
import { importBatches, type ImportRow } from '../src/core/memories/import';
import { createPersona } from '../src/core/personas/store';
import { exactRecall } from '../src/core/testing/exact-recall';
import { recall } from '../src/core/recall/recall';
import { makeTestCore } from '../src/core/testing/core';
import { fakeVector } from '../src/core/testing/fake-openai/embeddings';
import { clusteredSpace, pick, prng, question, sentence, syntheticMemories } from '../src/core/testing/synthetic-corpus';
import { percentile } from './latency-stats';
import { profileRecall } from './recall-profile';
import { VectorCache } from './retrieval/vector-cache';

const { values } = parseArgs({
  options: {
    facts: { type: 'string', default: '300' },
    n: { type: 'string', default: '1000' },
    queries: { type: 'string', default: '40' },
    seed: { type: 'string', default: '1' },
    'span-days': { type: 'string', default: '420' },
    json: { type: 'string' },
    show: { type: 'string', default: '0' },
    vectors: { type: 'string', default: 'local' },
    explain: { type: 'string', default: '0' },
    'skip-quality': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    cache: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '.cache/vectors') },
  },
});
const FACTS = Number(values.facts);
const N = Number(values.n);
const QUERIES = Number(values.queries);
const SEED = Number(values.seed);
/** How far back the simulated months reach: the facts' first values and the distractors fall in this span. */
const SPAN = Number(values['span-days']);
const DIMS = 512;
if (values.vectors !== 'local' && values.vectors !== 'hashed') throw new Error('--vectors is local or hashed');
const K = 10;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const f3 = (x: number) => Number(x.toFixed(3));

// --- the generated set --------------------------------------------------------------------------
const OWNERS = ["the user's", "the user's partner's", "the user's sister's", "the user's manager's", "the user's best friend's"];
const THINGS = [
  'home city', 'employer', 'job title', 'gym', 'dentist', 'bank', 'phone plan', 'car', 'laptop', 'bike', 'coffee shop',
  'running route', 'book club', 'favourite band', 'favourite dish', 'favourite film', 'current book', 'yoga studio',
  'doctor', 'landlord', 'football team', 'language course', 'side project', 'podcast', 'streaming service', 'barber',
  'climbing gym', 'piano teacher', 'holiday destination', 'wifi provider', 'electricity supplier', 'insurer',
  'accountant', 'cat', 'dog', 'neighbourhood', 'commute', 'lunch spot', 'wine', 'tea', 'camera', 'watch', 'editor',
  'keyboard', 'board game', 'hiking trail', 'swimming pool', 'bakery', 'bookshop', 'newsletter', 'therapist',
  'tennis partner', 'choir', 'garden project', 'mortgage lender', 'savings account', 'pension fund', 'pharmacy',
  'vet', 'cinema', 'theatre', 'museum membership',
];
const VALUES = [
  'Kestrel', 'Marlow', 'Juniper', 'Ostrava', 'Calloway', 'Brindle', 'Fenwick', 'Halden', 'Ivory Lane', 'Quillon',
  'Redmere', 'Saffron', 'Tamsin', 'Umberto', 'Valdor', 'Wexley', 'Yarrow', 'Zephyr', 'Aldous', 'Beaumont', 'Corvina',
  'Dunmore', 'Elowen', 'Farrow', 'Gideon', 'Hollis', 'Isolde', 'Jasper', 'Kilbride', 'Lorcan', 'Mireille', 'Nettleton',
  'Orla', 'Pemberton', 'Rosalind', 'Sorrento', 'Thackeray', 'Ulverston', 'Verity', 'Winslow', 'Xanthe', 'Ysolde',
  'Zennor', 'Arbroath', 'Belisama', 'Cragside', 'Delphine', 'Esker', 'Fallowfield', 'Glenarm',
];
const CHANGE_VERBS = ['is now', 'changed to', 'switched to', 'became', 'is from now on'];
const MENTIONS = ['Talked about', 'Complained about', 'Had a long chat about', 'Wrote a note on', 'Thought again about'];

interface Fact {
  subject: string;
  values: string[];
  /** Row index of each version in the import, oldest first. */
  rows: number[];
}

const DAY = 86_400_000;

function generate(now: Date): { rows: ImportRow[]; facts: Fact[]; links: [number, number][] } {
  const rnd = prng(SEED);
  const subjects: string[] = [];
  for (const o of OWNERS) for (const t of THINGS) subjects.push(`${o} ${t}`);
  // Fisher–Yates with the seeded generator: which subjects are used does not follow the lists' order.
  for (let i = subjects.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [subjects[i], subjects[j]] = [subjects[j]!, subjects[i]!];
  }
  if (FACTS > subjects.length) throw new Error(`--facts is at most ${subjects.length}`);
  const events: { at: number; row: Omit<ImportRow, 'insertedAt' | 'day'>; fact?: Fact }[] = [];
  const facts: Fact[] = [];
  for (const subject of subjects.slice(0, FACTS)) {
    const changes = 1 + Math.floor(rnd() * 3);
    const vals: string[] = [];
    while (vals.length < changes + 1) {
      const v = pick(rnd, VALUES);
      if (!vals.includes(v)) vals.push(v);
    }
    const fact: Fact = { subject, values: vals, rows: [] };
    facts.push(fact);
    // Over the span (default ~14 months): the first value in its first ~30 %, then each change
    // 30–80 % of the way from the previous one to today (always in the past, in order).
    let at = now.getTime() - (0.7 + rnd() * 0.3) * SPAN * DAY;
    vals.forEach((v, i) => {
      const content = i === 0 ? `${cap(subject)} is ${v}.` : `${cap(subject)} ${pick(rnd, CHANGE_VERBS)} ${v} (was ${vals[i - 1]}).`;
      events.push({ at, fact, row: { content, category: 'facts', importance: 4 + Math.floor(rnd() * 5) } });
      at += (now.getTime() - at) * (0.3 + rnd() * 0.5);
    });
    // Distractors about the same thing, with no value in them, at any time.
    for (let d = 0; d < 2; d++) {
      events.push({
        at: now.getTime() - rnd() * SPAN * DAY,
        row: { content: `${pick(rnd, MENTIONS)} ${subject} over dinner.`, category: 'journal', importance: 2 + Math.floor(rnd() * 6) },
      });
    }
  }
  for (let i = 0; i < FACTS * 2; i++) {
    events.push({ at: now.getTime() - rnd() * SPAN * DAY, row: { content: sentence(rnd), category: 'journal', importance: 1 + Math.floor(rnd() * 10) } });
  }
  events.sort((a, b) => a.at - b.at);
  const rows: ImportRow[] = events.map((e, i) => {
    if (e.fact) e.fact.rows.push(i);
    const insertedAt = new Date(e.at);
    return { ...e.row, insertedAt, day: insertedAt.toISOString().slice(0, 10) };
  });
  // A correct reviewer links each version to the next one.
  const links: [number, number][] = facts.flatMap((f) => f.rows.slice(0, -1).map((r, i): [number, number] => [r, f.rows[i + 1]!]));
  return { rows, facts, links };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const QUESTIONS = [(s: string) => `What is ${s} now?`, (s: string) => `Which one is ${s} at the moment, currently?`];

async function linkRows(db: { query: (sql: string, params: unknown[]) => Promise<unknown> }, pairs: [string, string][], at: Date): Promise<void> {
  // In bulk, as many supersede calls would make; the bench measures recall, not the linking.
  for (let i = 0; i < pairs.length; i += 1000) {
    const part = pairs.slice(i, i + 1000);
    await db.query(
      `UPDATE memories m SET superseded_by = l.by, superseded_at = $3
       FROM unnest($1::uuid[], $2::uuid[]) AS l(id, by) WHERE m.id = l.id`,
      [part.map((p) => p[0]), part.map((p) => p[1]), at],
    );
  }
}

async function quality(ctx: CoreContext, now: Date): Promise<Record<string, Record<string, number | string>>> {
  const set = generate(now);
  const questions: Question[] = set.facts.flatMap((f) => QUESTIONS.map((q) => ({ fact: f, text: q(f.subject) })));
  console.log(`generated: ${set.facts.length} facts, ${set.links.length} changes, ${set.rows.length} memories, ${questions.length} questions`);
  const vector = await vectorsFor(ctx, [...set.rows.map((r) => r.content), ...questions.map((q) => q.text)]);
  const rows = set.rows.map((r) => ({ ...r, embedding: vector(r.content) }));
  await createPersona(ctx.db, 'linked');
  await createPersona(ctx.db, 'unlinked');
  const imp = await importBatches(ctx, [
    { persona: 'linked', rows },
    { persona: 'unlinked', rows },
  ]);
  const linkedIds = imp.ids.slice(0, rows.length);
  const unlinkedIds = imp.ids.slice(rows.length);
  await linkRows(ctx.db, set.links.map(([a, b]) => [linkedIds[a]!, linkedIds[b]!]), now);
  await ctx.db.exec('ANALYZE memories');

  const out: Record<string, Record<string, number | string>> = {};
  const row = (label: string, counts: { top1: number; top10: number; outdatedAbove: number }, asked = questions.length) => {
    out[label] = {
      'current at rank 1': f3(counts.top1 / asked),
      'current in top 10': f3(counts.top10 / asked),
      'outdated above current': f3(counts.outdatedAbove / asked),
      'load average': load(),
    };
  };
  for (const [label, persona, ids] of [
    ['with supersession', 'linked', linkedIds],
    ['without (links ignored)', 'unlinked', unlinkedIds],
  ] as const) {
    const counts = { top1: 0, top10: 0, outdatedAbove: 0 };
    for (const [qi, q] of questions.entries()) {
      const hits: RecallHit[] = await recall(ctx, { persona, query: q.text, limit: K, kinds: ['memory'], queryEmbedding: vector(q.text) });
      const current = ids[q.fact.rows.at(-1)!]!;
      const t = tally(hits, current, new Set(q.fact.rows.slice(0, -1).map((r) => ids[r]!)));
      counts.top1 += Number(t.top1);
      counts.top10 += Number(t.top10);
      counts.outdatedAbove += Number(t.outdatedAbove);
      if (qi < Number(values.show)) {
        const want = rows[q.fact.rows.at(-1)!]!;
        console.log(`\n[${label}] ${q.text}\n  expected: ${want.content} (${want.day})`);
        for (const h of hits.slice(0, 5)) {
          const sc = h.score;
          const parts = `text ${sc.text.toFixed(2)} cos ${sc.cosine?.toFixed(2) ?? '-'} imp ${sc.importance?.toFixed(2)} rec ${sc.recency?.toFixed(4)}`;
          console.log(`  ${h.id === current ? '*' : ' '} ${sc.final.toFixed(4)} (${parts}) ${h.memory?.day} ${h.content}`);
        }
      }
    }
    row(label, counts);
  }
  console.log(`\nquality: ${questions.length} current-value questions, production recall, limit ${K}, ${values.vectors} vectors`);
  console.table(out);
  const sample = questions.slice(0, Number(values.explain));
  if (sample.length) {
    // Diagnostic only: every row scored by the production formula, then ordered without its recency factor.
    for (const [label, persona, ids] of [
      ['with supersession, recency factor removed (diagnostic)', 'linked', linkedIds],
      ['without, recency factor removed (diagnostic)', 'unlinked', unlinkedIds],
    ] as const) {
      const counts = { top1: 0, top10: 0, outdatedAbove: 0 };
      for (const q of sample) {
        const all = await exactRecall(ctx, { persona, query: q.text, limit: rows.length, kinds: ['memory'], queryEmbedding: vector(q.text) });
        const hits = all
          .map((h) => ({ id: h.id, base: h.score.final / (h.score.recency ?? 1) }))
          .sort((a, b) => b.base - a.base || (a.id < b.id ? -1 : 1));
        const t = tally(hits, ids[q.fact.rows.at(-1)!]!, new Set(q.fact.rows.slice(0, -1).map((r) => ids[r]!)));
        counts.top1 += Number(t.top1);
        counts.top10 += Number(t.top10);
        counts.outdatedAbove += Number(t.outdatedAbove);
      }
      row(`${label}, first ${sample.length} questions`, counts, sample.length);
    }
    const ages = set.facts.map((f) => (now.getTime() - rows[f.rows.at(-1)!]!.insertedAt!.getTime()) / DAY).sort((a, b) => a - b);
    console.log(`\ndiagnostic, not production figures: the same scores without the recency factor`);
    console.table(Object.fromEntries(Object.entries(out).slice(2)));
    console.log(`\nage of the current values, days: min ${ages[0]!.toFixed(0)}, median ${ages[ages.length >> 1]!.toFixed(0)}, max ${ages.at(-1)!.toFixed(0)}`);
  }
  return out;
}

/** One vector per text: the configured embedder's (cached on disk by model and text), or the hashed stand-in. */
async function vectorsFor(ctx: CoreContext, texts: string[]): Promise<(text: string) => Float32Array> {
  if (values.vectors === 'hashed') return (t) => fakeVector(t, DIMS);
  const provider = ctx.embedder.current('no-persona');
  if (provider.dimensions !== DIMS) throw new Error(`the configured embedder gives ${provider.dimensions}-d vectors; the bench expects ${DIMS}`);
  const cache = new VectorCache(values.cache, ctx.embedder.model(), provider.dimensions);
  const missing = cache.missing(texts);
  if (missing.length) console.log(`embedding ${missing.length} texts with ${ctx.embedder.model()} (cached for next time)…`);
  for (let i = 0; i < missing.length; i += provider.maxBatch) {
    const batch = missing.slice(i, i + provider.maxBatch);
    const vecs = await provider.embed(batch, {});
    batch.forEach((t, j) => cache.set(t, Float32Array.from(vecs[j]!)));
  }
  cache.save();
  return (t) => cache.get(t)!;
}

interface Question {
  fact: Fact;
  text: string;
}

/** Where the current value and the first outdated one sit in one ranking. */
function tally(hits: { id: string }[], current: string, outdated: Set<string>) {
  const at = hits.findIndex((h) => h.id === current);
  const firstOld = hits.findIndex((h) => outdated.has(h.id));
  return { top1: at === 0, top10: at >= 0 && at < K, outdatedAbove: firstOld >= 0 && firstOld < K && (at < 0 || firstOld < at) };
}

const core = await makeTestCore({ queues: {} });
const result: Record<string, unknown> = { facts: FACTS, n: N, queries: QUERIES, seed: SEED, spanDays: SPAN, vectors: values.vectors };
try {
  const ctx = core.ctx;
  const now = ctx.now();
  if (!values['skip-quality']) result.quality = await quality(ctx, now);

  // --- latency with 20 % superseded -------------------------------------------------------------
  const space = clusteredSpace(SEED, DIMS, 24);
  await createPersona(ctx.db, 'plain');
  await createPersona(ctx.db, 'superseded');
  const corpus = [...syntheticMemories({ n: N, seed: SEED + 1, now, space })];
  console.log(`\nimporting 2 × ${N} synthetic memories for the latency part…`);
  const big = await importBatches(ctx, [
    { persona: 'plain', rows: corpus },
    { persona: 'superseded', rows: corpus },
  ]);
  const sup = big.ids.slice(N);
  // Every fifth row is replaced by the row after it (itself current): 20 % superseded.
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < N; i += 5) pairs.push([sup[i]!, sup[i + 1]!]);
  await linkRows(ctx.db, pairs, now);
  await ctx.db.exec('ANALYZE memories');
  const rnd = prng(SEED + 2);
  const qs = Array.from({ length: QUERIES }, () => ({ query: question(rnd), vector: space.sample(rnd) }));
  const run = async (persona: string) => {
    const ms: number[] = [];
    for (const q of qs) {
      const t = performance.now();
      await recall(ctx, { persona, query: q.query, limit: K, kinds: ['memory'], queryEmbedding: q.vector });
      ms.push(performance.now() - t);
    }
    return ms;
  };
  await run('plain'); // warm the buffers
  await run('superseded');
  const rounds: { plain: number[]; superseded: number[] } = { plain: [], superseded: [] };
  for (let r = 0; r < 3; r++) {
    for (const persona of ['plain', 'superseded'] as const) {
      const ms = await run(persona);
      rounds[persona].push(percentile(ms, 95));
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const latency = {
    memories: N,
    superseded: pairs.length,
    'p95 ms, none superseded (median of 3)': Number(med(rounds.plain).toFixed(1)),
    'p95 ms, 20 % superseded (median of 3)': Number(med(rounds.superseded).toFixed(1)),
    'change': `${(((med(rounds.superseded) - med(rounds.plain)) / med(rounds.plain)) * 100).toFixed(1)} %`,
    'load average': load(),
  };
  console.log(`\nrecall latency, ${QUERIES} queries a round, limit ${K}:`);
  console.table(latency);
  result.latency = { ...latency, roundsP95: rounds };
  if (values.profile) {
    const args = (persona: string) => qs.slice(0, 20).map((q) => ({ persona, query: q.query, limit: K, kinds: ['memory' as const], queryEmbedding: q.vector }));
    const plain = await profileRecall(ctx, args('plain'));
    const superseded = await profileRecall(ctx, args('superseded'));
    const table: Record<string, Record<string, number>> = {};
    for (const st of plain.statements) table[st.kind] = { 'p50 ms, none': st.p50, 'calls, none': st.calls };
    for (const st of superseded.statements) table[st.kind] = { ...table[st.kind], 'p50 ms, 20 %': st.p50, 'calls, 20 %': st.calls };
    console.log(`\nwhere one recall's time goes (20 queries; whole recall p50 ${plain.totalP50} ms none, ${superseded.totalP50} ms 20 % superseded):`);
    console.table(table);
    console.log(`\nquery plans, 20 % superseded (first query):\n${superseded.plans.join('\n\n')}`);
    result.profile = { plain, superseded };
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await core.dispose();
}
