// Retrieval quality of the production `recall` on a conversational-memory
// benchmark, next to a plain BM25 computed here.
//   npm run bench:retrieval -- [--data DIR] [--variant bm25_context,bm25,ts_rank] [--no-vectors] [--json FILE]
// Each conversation becomes its own persona (day from the data); every
// question goes through recall with limit 10. Vectors come from the configured
// provider (default: the built-in local model) and are cached on disk by model
// and text hash, so reruns embed nothing.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { RankingVariant } from '../src/shared/api';
import { importMemories } from '../src/core/memories/import';
import { recall } from '../src/core/recall/recall';
import { RANKING_VARIANTS } from '../src/shared/enums';
import { DEFAULT_VARIANT } from '../src/core/recall/variants';
import { makeTestCore } from '../src/core/testing/core';
import { Bm25 } from './retrieval/bm25';
import { byConversation, loadDataset, type Question } from './retrieval/dataset';
import { type QuestionScore, scoreRanking, type Summary, summarize } from './retrieval/metrics';
import { VectorCache } from './retrieval/vector-cache';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(here, '../../shared/bench-data/locomo-dev') },
    variant: { type: 'string', default: RANKING_VARIANTS.join(',') },
    'no-vectors': { type: 'boolean', default: false },
    json: { type: 'string' },
    cache: { type: 'string', default: join(here, '.cache/vectors') },
  },
});
if (!existsSync(join(values.data, 'memories.jsonl'))) {
  console.error(`No benchmark data at ${values.data} (expected memories.jsonl and queries.jsonl; see shared/bench-data/README.md).`);
  process.exit(2);
}
const variants = values.variant.split(',').map((v) => v.trim()) as RankingVariant[];
for (const v of variants) {
  if (!RANKING_VARIANTS.includes(v)) {
    console.error(`Unknown variant ${v}; known: ${RANKING_VARIANTS.join(', ')}`);
    process.exit(2);
  }
}
const useVectors = !values['no-vectors'];

const { turns, questions } = loadDataset(values.data);
const convs = byConversation(turns);
// No background queues: the bench embeds (and caches) itself, then imports vectors.
const core = await makeTestCore({ queues: {} });
const results: Record<string, { overall: Summary; byCategory: Record<string, Summary> }> = {};
try {
  const ctx = core.ctx;
  const model = ctx.embedder.model();
  const provider = ctx.embedder.current();
  const cache = new VectorCache(values.cache, model, provider.dimensions);
  if (useVectors) {
    const missing = cache.missing([...turns.map((t) => t.content), ...questions.map((q) => q.question)]);
    if (missing.length) console.log(`embedding ${missing.length} texts with ${model} (cached for next time)…`);
    const t0 = performance.now();
    for (let i = 0; i < missing.length; i += provider.maxBatch) {
      const batch = missing.slice(i, i + provider.maxBatch);
      const vecs = await provider.embed(batch, {});
      batch.forEach((t, j) => cache.set(t, vecs[j]!));
      if ((i / provider.maxBatch) % 20 === 19) cache.save();
    }
    cache.save();
    if (missing.length) console.log(`  ${((missing.length / (performance.now() - t0)) * 1000).toFixed(1)} texts/s`);
  }

  // One persona per conversation; turn id ↔ memory id.
  const turnOf = new Map<string, string>();
  const personaOf = new Map<string, string>();
  for (const [conv, list] of convs) {
    const persona = await core.call('personas.create', { name: `bench ${conv}` });
    personaOf.set(conv, persona.id);
    const res = await importMemories(
      ctx,
      persona.id,
      list.map((t) => ({ content: t.content, day: t.day, embedding: useVectors ? cache.get(t.content)! : null })),
    );
    res.ids.forEach((id, i) => turnOf.set(id, list[i]!.id));
  }
  await ctx.db.exec('ANALYZE memories');
  console.log(`${turns.length} turns in ${convs.size} personas, ${questions.length} questions\n`);

  const rank = async (q: Question, variant: RankingVariant) => {
    const hits = await recall(ctx, {
      persona: personaOf.get(q.conv)!,
      query: q.question,
      limit: 10,
      kinds: ['memory'],
      variant,
      queryEmbedding: useVectors ? cache.get(q.question)! : null,
    });
    return hits.map((h) => turnOf.get(h.id)!);
  };
  for (const variant of variants) {
    const scores: QuestionScore[] = [];
    for (const q of questions) scores.push(scoreRanking(await rank(q, variant), q.evidence, q.category_name));
    const label = `recall ${variant}${useVectors ? ' + vectors' : ', text only'}${variant === DEFAULT_VARIANT ? ' (default)' : ''}`;
    results[label] = summarize(scores);
  }
  const bm25 = new Map([...convs].map(([c, list]) => [c, new Bm25(list.map((t) => ({ id: t.id, text: t.content })))]));
  results['plain BM25 (bench, JS)'] = summarize(
    questions.map((q) => scoreRanking(bm25.get(q.conv)!.search(q.question, 10), q.evidence, q.category_name)),
  );
} finally {
  await core.dispose();
}

const fmt = (x: number) => x.toFixed(3);
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
