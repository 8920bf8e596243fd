// Retrieval quality of the production `recall` on a conversational-memory
// benchmark, next to a plain BM25 computed here.
//   npm run bench:retrieval -- [--data DIR] [--no-vectors] [--json FILE] [--text-index both|term_stats]
//   --text-index both: recall also with BM25 from Hearth's own term statistics (a PostgreSQL
//   server without pg_textsearch, docs/ranking.md), and how many questions got the very same hits
//   npm run bench:retrieval -- --folds [--techniques a,b,c] [--combined a,b]   leave-one-conversation-out (docs/ranking.md);
//   each technique alone, then those in --combined (default: all) together; --rankings FILE writes every ranking
// Each conversation becomes its own persona (day from the data); every
// question goes through recall with limit 10. Vectors come from the configured
// provider (default: the built-in local model) and are cached on disk by model
// and text hash, so reruns embed nothing.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { importMemories } from '../src/core/memories/import';
import { recall } from '../src/core/recall/recall';
import type { TextIndexKind } from '../src/core/recall/text-index';
import { makeTestCore } from '../src/core/testing/core';
import { keepOwnTermStats } from '../src/core/testing/term-stats';
import { Bm25 } from './retrieval/bm25';
import { DEFAULT_TUNING } from '../src/core/recall/tuning';
import { crossValidate, product, type Trial } from './retrieval/folds';
import { type Axis, BASE, type BenchSetting, TECHNIQUES } from './retrieval/techniques';
import { memoryKey } from '../src/core/memories/context-key';
import { byConversation, loadDataset, type Question } from './retrieval/dataset';
import { type QuestionScore, scoreRanking, type Summary, summarize } from './retrieval/metrics';
import { VectorCache } from './retrieval/vector-cache';
import { embedByLength } from '../src/core/embeddings/length-order';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(here, '../../shared/bench-data/locomo-dev') },
    'no-vectors': { type: 'boolean', default: false },
    json: { type: 'string' },
    folds: { type: 'boolean', default: false },
    techniques: { type: 'string' },
    /** Which of the techniques also run together (default: all of them); each still runs alone. */
    combined: { type: 'string' },
    cache: { type: 'string', default: join(here, '.cache/vectors') },
    /** Writes every question of the production defaults whose evidence was missed: the evidence, its rank, the top hits (to read, never to commit). */
    misses: { type: 'string' },
    /** Writes every setting's ranked ids and scores per question (JSON): two runs with equal files ranked alike (a pure speed-up). */
    rankings: { type: 'string' },
    'text-index': { type: 'string' },
  },
});
const textIndexes = { undefined: [undefined], both: [undefined, 'term_stats'], term_stats: ['term_stats'] }[String(values['text-index'])] as
  | (TextIndexKind | undefined)[]
  | undefined;
if (!textIndexes) {
  console.error('--text-index takes both or term_stats');
  process.exit(2);
}
if (!existsSync(join(values.data, 'memories.jsonl'))) {
  console.error(`No benchmark data at ${values.data} (expected memories.jsonl and queries.jsonl; see shared/bench-data/README.md).`);
  process.exit(2);
}
const useVectors = !values['no-vectors'];

const { turns, questions } = loadDataset(values.data);
const convs = byConversation(turns);
// No background queues: the bench embeds (and caches) itself, then imports vectors.
// The clock stands at the day after a conversation's last session while its
// questions are asked, so "last week" or "yesterday" mean what they would to its user.
let clock = new Date();
const askedOn = new Map([...convs].map(([c, list]) => [c, new Date(Date.parse(`${list.map((t) => t.day).sort().at(-1)}T12:00:00Z`) + 86_400_000)]));
const core = await makeTestCore({ queues: {}, now: () => clock });
// Own term statistics are kept only where pg_textsearch is missing: start them here to compare.
if (textIndexes.includes('term_stats')) await keepOwnTermStats(core.ctx.db);
const folded: Record<string, Awaited<ReturnType<typeof crossValidate<BenchSetting>>> & { plain: ReturnType<typeof summarize> }> = {};
const results: Record<string, { overall: Summary; byCategory: Record<string, Summary> }> = {};
const rankings: Record<string, string[]> = {};
try {
  const ctx = core.ctx;
  const model = ctx.embedder.model();
  const provider = ctx.embedder.current('no-persona');
  const cache = new VectorCache(values.cache, model, provider.dimensions);
  // Contextual keys (src/core/memories/context-key.ts) as the embedding job makes them for an
  // imported stream: day, the turn before on the same day, the turn itself.
  const chosen = values.techniques ? values.techniques.split(',').map((s) => s.trim()) : Object.keys(TECHNIQUES);
  for (const name of chosen) if (!TECHNIQUES[name]) throw new Error(`Unknown technique ${name}; known: ${Object.keys(TECHNIQUES).join(', ')}`);
  const withKeys = values.folds && useVectors && (chosen.includes('keys') || chosen.includes('keytext'));
  const withKeyText = withKeys && chosen.includes('keytext');
  const keyOf = new Map<string, string>();
  if (withKeys) {
    for (const list of convs.values())
      list.forEach((t, i) => {
        const prev = list[i - 1];
        keyOf.set(t.id + t.conv, memoryKey({ content: t.content, day: t.day, category: null, previous: prev?.day === t.day ? prev.content : null, standalone: false }));
      });
  }
  if (useVectors) {
    const missing = cache.missing([...turns.map((t) => t.content), ...questions.map((q) => q.question), ...keyOf.values()]);
    if (missing.length) console.log(`embedding ${missing.length} texts with ${model} (cached for next time)…`);
    const t0 = performance.now();
    // Grouped by length as the embedding job does (length-order.ts); saved every 20 batches.
    let batches = 0;
    await embedByLength(
      missing,
      provider.maxBatch,
      async (batch) => {
        const vecs = await provider.embed(batch, {});
        batch.forEach((t, j) => cache.set(t, vecs[j]!));
        if (++batches % 20 === 0) cache.save();
        return vecs;
      },
    );
    cache.save();
    if (missing.length) console.log(`  ${((missing.length / (performance.now() - t0)) * 1000).toFixed(1)} texts/s`);
  }

  // One persona per conversation; turn id ↔ memory id.
  const turnOf = new Map<string, string>();
  const personaOf = new Map<string, string>();
  const keyedPersonaOf = new Map<string, string>();
  const keyTextPersonaOf = new Map<string, string>();
  const contentOf = new Map(turns.map((t) => [`${t.conv}|${t.id}`, t.content]));
  for (const [conv, list] of convs) {
    const persona = await core.call('personas.create', { name: `bench ${conv}` });
    personaOf.set(conv, persona.id);
    const res = await importMemories(
      ctx,
      persona.id,
      list.map((t) => ({ content: t.content, day: t.day, embedding: useVectors ? cache.get(t.content)! : null })),
    );
    res.ids.forEach((id, i) => turnOf.set(id, list[i]!.id));
    if (withKeys) {
      // The same conversation again, its vectors made from contextual keys.
      const keyed = await core.call('personas.create', { name: `bench ${conv} keyed` });
      keyedPersonaOf.set(conv, keyed.id);
      const r = await importMemories(ctx, keyed.id, list.map((t) => ({ content: t.content, day: t.day, embedding: cache.get(keyOf.get(t.id + t.conv)!)! })));
      r.ids.forEach((id, i) => turnOf.set(id, list[i]!.id));
    }
    if (withKeyText) {
      // Once more, the key as the indexed text too (what the text index would see if it indexed keys).
      const kt = await core.call('personas.create', { name: `bench ${conv} key text` });
      keyTextPersonaOf.set(conv, kt.id);
      const r = await importMemories(ctx, kt.id, list.map((t) => ({ content: keyOf.get(t.id + t.conv)!, day: t.day, embedding: cache.get(keyOf.get(t.id + t.conv)!)! })));
      r.ids.forEach((id, i) => turnOf.set(id, list[i]!.id));
    }
  }
  await ctx.db.exec('ANALYZE memories');
  console.log(`${turns.length} turns in ${convs.size} personas, ${questions.length} questions\n`);

  const rank = async (q: Question, setting?: BenchSetting, textIndex?: TextIndexKind, limit = 10, scores?: string[]) => {
    clock = askedOn.get(q.conv)!;
    const { keys, ...tuning } = setting ?? {};
    const hits = await recall(ctx, {
      tuning,
      persona: (keys === 'context' ? keyedPersonaOf : keys === 'context+text' ? keyTextPersonaOf : personaOf).get(q.conv)!,
      query: q.question,
      limit,
      kinds: ['memory'],
      queryEmbedding: useVectors ? cache.get(q.question)! : null,
      ...(textIndex ? { textIndex } : {}),
    });
    scores?.push(hits.map((h) => `${turnOf.get(h.id)} ${h.score.final}`).join(' | '));
    return hits.map((h) => turnOf.get(h.id)!);
  };
  if (values.folds) {
    // Each distinct setting is run once and shared by every setup that tries it.
    const runs = new Map<string, Promise<QuestionScore[]>>();
    const run = (t: BenchSetting) => {
      // Spelled-out defaults and omitted ones are the same setting.
      const key = JSON.stringify(Object.entries({ ...DEFAULT_TUNING, keys: 'content', ...t }).sort());
      if (!runs.has(key))
        runs.set(
          key,
          (async () => {
            const out: QuestionScore[] = [];
            const t0 = performance.now();
            const listed: string[] = [];
            for (const q of questions) out.push(scoreRanking(await rank(q, t, undefined, 10, listed), q.evidence, q.category_name));
            rankings[key] = listed;
            console.log(`  ran ${JSON.stringify(t)}: R@10 ${summarize(out).overall.r10.toFixed(3)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
            return out;
          })(),
        );
      return runs.get(key)!;
    };
    const convOf = questions.map((q) => q.conv);
    const trialsOf = async (settings: BenchSetting[]) => {
      const out: Trial<BenchSetting>[] = [];
      // Sequential: one PGlite, and a shared machine.
      for (const setting of settings) out.push({ setting, scores: await run(setting) });
      return out;
    };
    const report = (label: string, cv: Awaited<ReturnType<typeof crossValidate<BenchSetting>>>, defaults: QuestionScore[]) => {
      folded[label] = { ...cv, plain: summarize(defaults) };
      console.log(`${label}: chosen per fold: ${cv.folds.map((f) => `${f.conv} ${JSON.stringify(f.chosen)}`).join('; ')}; best on all: ${JSON.stringify(cv.inSample.setting)}`);
    };
    // What users run: tuning.ts's defaults, with key vectors when the run has them.
    const defaults = await run(withKeys ? { keys: 'context' } : {});
    if (values.misses) {
      const lines: string[] = [];
      const scores = await defaults;
      for (const [i, q] of questions.entries()) {
        if (scores[i]!.r10 >= 1) continue;
        const top = await rank(q, withKeys ? { keys: 'context' } : {}, undefined, 50);
        lines.push(`## ${q.category_name} ${q.conv}: ${q.question}  (answer: ${JSON.stringify(q.answer)})`);
        for (const e of q.evidence) {
          const at = top.indexOf(e);
          lines.push(`  ${at >= 0 && at < 10 ? 'found' : 'MISSED'} rank ${at >= 0 ? at + 1 : '>50'}: ${contentOf.get(`${q.conv}|${e}`) ?? e}`);
        }
        for (const [j, id] of top.slice(0, 3).entries()) lines.push(`  top ${j + 1}: ${contentOf.get(`${q.conv}|${id}`)}`);
      }
      writeFileSync(values.misses, lines.join('\n') + '\n');
      console.log(`wrote the misses to ${values.misses}`);
    }
    const base = await crossValidate(convOf, () => trialsOf(BASE));
    report('baseline (neighbour share)', base, defaults);
    // A technique is tuned on top of the neighbour share its fold's baseline chose (coordinate-wise:
    // every choice is still made on the four training conversations only), which keeps the runs few.
    const shareOf = new Map(base.folds.map((f) => [f.conv, f.chosen]));
    const setups: [string, Axis[]][] = chosen.map((n) => [`+ ${n}`, TECHNIQUES[n]!]);
    const together = values.combined ? values.combined.split(',').map((s) => s.trim()).filter((n) => chosen.includes(n)) : chosen;
    if (together.length > 1) setups.push([`+ ${together.join(' + ')}`, together.flatMap((n) => TECHNIQUES[n]!)]);
    // On top of what production runs: key vectors, when this run has them (the keys technique's own axis overrides).
    const prodAxes: Axis[] = withKeys ? [[{ keys: 'context' }]] : [];
    for (const [label, axes] of setups) {
      report(label, await crossValidate(convOf, (conv) => trialsOf(product<BenchSetting>([[shareOf.get(conv)!], ...prodAxes, ...axes]))), defaults);
    }
  }
  if (!values.folds) {
    const ranked = new Map<TextIndexKind | undefined, string[][]>();
    for (const textIndex of textIndexes) {
      const scores: QuestionScore[] = [];
      const lists: string[][] = [];
      for (const q of questions) {
        const list = await rank(q, undefined, textIndex);
        lists.push(list);
        scores.push(scoreRanking(list, q.evidence, q.category_name));
      }
      ranked.set(textIndex, lists);
      const label = `recall${useVectors ? ' + vectors' : ', text only'}${textIndex ? ' [own term stats]' : ''}`;
      results[label] = summarize(scores);
      const index = ranked.get(undefined);
      if (textIndex && index) {
        const same = lists.filter((l, i) => l.join() === index[i]!.join()).length;
        console.log(`${label}: ${same} of ${questions.length} questions got the same top 10, in the same order, as with the bm25 index`);
      }
    }
  }
  const bm25 = new Map([...convs].map(([c, list]) => [c, new Bm25(list.map((t) => ({ id: t.id, text: t.content })))]));
  results['plain BM25 (bench, JS)'] = summarize(
    questions.map((q) => scoreRanking(bm25.get(q.conv)!.search(q.question, 10), q.evidence, q.category_name)),
  );
} finally {
  await core.dispose();
}

const fmt = (x: number) => x.toFixed(3);
if (values.folds) {
  console.log('\nLeave-one-conversation-out: defaults = production settings on all questions; best on all = tuned on every question (optimistic);');
  console.log('CV = each question scored by the setting chosen on the other four conversations (mean and worst of the five folds)');
  console.table(
    Object.fromEntries(
      Object.entries(folded).map(([k, v]) => [
        k,
        {
          'defaults R@10': fmt(v.plain.overall.r10),
          'best on all R@10': fmt(v.inSample.overall.r10),
          'CV R@10': fmt(v.pooled.overall.r10),
          'mean fold': fmt(v.meanFold),
          'worst fold': fmt(v.worstFold),
          'CV MRR': fmt(v.pooled.overall.mrr),
          'CV R@5': fmt(v.pooled.overall.r5),
        },
      ]),
    ),
  );
  const cats = Object.keys(Object.values(folded)[0]?.pooled.byCategory ?? {});
  console.log('CV R@10 by category (questions):');
  console.table(
    Object.fromEntries(
      ([['defaults (no tuning)', Object.values(folded)[0]!.plain], ...Object.entries(folded).map(([k, v]) => [`CV ${k}`, v.pooled])] as [string, ReturnType<typeof summarize>][]).map(([k, v]) => [
        k,
        Object.fromEntries(cats.map((c) => [`${c} (${v.byCategory[c]!.n})`, fmt(v.byCategory[c]!.r10)])),
      ]),
    ),
  );
  if (values.json) writeFileSync(values.json, JSON.stringify({ data: values.data, vectors: useVectors, folded }, null, 2));
  if (values.rankings) writeFileSync(values.rankings, JSON.stringify(rankings, null, 1));
  process.exit(0);
}
console.table(
  Object.fromEntries(
    Object.entries(results).map(([k, v]) => [
      k,
      { 'R@5': fmt(v.overall.r5), 'R@10': fmt(v.overall.r10), 'All@10': fmt(v.overall.all10), MRR: fmt(v.overall.mrr) },
    ]),
  ),
);
const cats = Object.keys(Object.values(results)[0]?.byCategory ?? {});
console.log('R@10 by category (questions):');
console.table(
  Object.fromEntries(
    Object.entries(results).map(([k, v]) => [
      k,
      Object.fromEntries(cats.map((c) => [`${c} (${v.byCategory[c]!.n})`, fmt(v.byCategory[c]!.r10)])),
    ]),
  ),
);
if (values.json) {
  writeFileSync(values.json, JSON.stringify({ data: values.data, vectors: useVectors, results }, null, 2));
  console.log(`wrote ${values.json}`);
}
