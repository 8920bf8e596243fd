// recall (docs/ranking.md): memories and knowledge of one persona, ranked together.
import type { MemoryFilters, MemorySearchResult, RecallHit } from '../../shared/api';
import { isMatch } from '../../shared/recall-match';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { encodeVector } from '../db/vector';
import { personaPrivacy, requirePersona } from '../personas/store';
import type { PersonaPrivacy } from '../providers/locality';
import { normaliseText } from '../text/normalise';
import { recallKnowledge } from './knowledge';
import { countMatches, type MatchCount } from './match-count';
import { type MemoryScope, recallMemories } from './memories';
import { stagedTopK } from './staged-pass';
import { unitMean } from './vector-mean';
import { type CandidateSizes, candidateSizes, indexSettings, type Probe } from './probe';
import { byScore } from './score';
import { textIndex, textIndexFor, type TextIndexKind } from './text-index';
import { rewriteQuery } from './rewrite';
import { prepareTextQuery } from './text-query';
import { timeRanges, widen } from './time-query';
import { type RecallTuning, tuningWith } from './tuning';

export interface RecallArgs {
  persona: string;
  query: string;
  limit?: number;
  /** YYYY-MM-DD: memories of that day only (knowledge is unaffected). */
  date?: string;
  kinds?: ('memory' | 'knowledge')[];
  /** Also return superseded memories, each placed below what replaced it (docs/history.md). */
  includeSuperseded?: boolean;
  /** Only memories passing these are considered (knowledge is unaffected): they narrow the candidates, not the result. */
  filters?: MemoryFilters;
  /** A query vector the caller already has; null forces text-only; absent → recall embeds the query itself. */
  queryEmbedding?: ArrayLike<number> | null;
  /** Cuts the query's embedding short (e.g. a model's tool call that must not wait): recall then ranks by text. */
  embedSignal?: AbortSignal;
  /** Core-only (the API schema has no such field): the retrieval bench's cross-validation tries other numbers. */
  tuning?: Partial<RecallTuning>;
  /**
   * Core-only: which text index BM25 reads (text-index.ts). Production leaves
   * it out and the database's features decide; tests and benches force either
   * to check both give the same ranking on one database.
   */
  textIndex?: TextIndexKind;
  /**
   * Core-only: this recall answers a question (the recall method, the chat's tool), so it may ask the
   * chat model for search queries when the person switched that on (rewrite.ts). Off for the memory
   * browser's search-as-you-type and the review's own lookups.
   */
  rewrite?: boolean;
}

/**
 * The query's vector: the caller's, or the embedder's. embedQuery has its own
 * short timeout and resolves null on failure, so recall then ranks by text only.
 * Done before the read transaction, which must not wait on a provider.
 */
async function queryVector(ctx: CoreContext, a: RecallArgs, privacy: PersonaPrivacy): Promise<ArrayLike<number> | null> {
  // A server without pgvector has no vectors to compare with (docs/server-mode.md).
  if (!ctx.db.features.vector) return null;
  if (a.queryEmbedding !== undefined) return a.queryEmbedding;
  if (!a.query.trim()) return null;
  return embedSearchText(ctx, privacy, a.query, a.embedSignal);
}

/** Cleaned as documents' keys are (docs/ranking.md, "Clean text"): curly quotes, ligatures, dashes. */
function embedSearchText(ctx: CoreContext, privacy: PersonaPrivacy, text: string, signal?: AbortSignal): Promise<Float32Array | null> {
  return ctx.embedder.embedQuery(normaliseText(text) || text, privacy, signal);
}

/**
 * What recall searches: the question, or with model help (rewrite.ts) the question and the model's
 * queries together — one text query holding all their words, and the mean of their vectors (HyDE:
 * an imagined answer lies nearer the memories that hold the real one). The time the question names
 * is read from the question alone.
 */
async function searchInputs(ctx: CoreContext, a: RecallArgs): Promise<{ text: string; vector: ArrayLike<number> | null }> {
  // A local-only persona's question goes to no provider off this computer (docs/privacy.md).
  const privacy = await personaPrivacy(ctx.db, a.persona);
  const [vector, extra] = await Promise.all([queryVector(ctx, a, privacy), a.rewrite ? rewriteQuery(ctx, privacy, a.query) : Promise.resolve([])]);
  if (!extra.length) return { text: a.query, vector };
  const text = [a.query, ...extra].join('\n');
  if (!vector) return { text, vector };
  // Each has the embedder's own short timeout (and the caller's); one that fails is left out of the mean.
  const more = await Promise.all(extra.map((x) => embedSearchText(ctx, privacy, x, a.embedSignal)));
  return { text, vector: unitMean([vector, ...more.filter((v): v is Float32Array => v !== null && v.length === vector.length)]) };
}

/** `candidates`: the indexes pick, exact formula ranks. `exact`: every row is scored (src/core/testing/exact-recall.ts). */
export type RecallMode = 'candidates' | 'exact';

async function probeFor(q: Queryable, ctx: CoreContext, a: RecallArgs, search: { text: string; vector: ArrayLike<number> | null }): Promise<Probe> {
  const tuning = tuningWith(a.tuning);
  const now = ctx.now();
  const vector = search.vector;
  return {
    persona: a.persona,
    tq: await prepareTextQuery(q, search.text, textIndex(a.textIndex ?? textIndexFor(ctx.db.features))),
    vector: vector ? encodeVector(vector) : null,
    model: ctx.embedder.model(),
    now,
    ...(a.date ? { date: a.date } : {}),
    ...(a.includeSuperseded ? { includeSuperseded: true } : {}),
    tuning,
    // One day's recall (`date`) has nothing left to prefer by time.
    timeRanges: tuning.timeBoost > 0 && !a.date ? widen(await timeRanges(a.query, now), tuning.timeSlackDays) : [],
    ...(a.filters && Object.values(a.filters).some((v) => v !== undefined) ? { filters: a.filters } : {}),
  };
}

/** Chunks are indexed by normalised keys: the question is matched in the same clean form. */
async function knowledgeProbe(q: Queryable, a: RecallArgs, probe: Probe): Promise<Probe> {
  const clean = normaliseText(probe.tq.text);
  if (clean === probe.tq.text) return probe;
  return { ...probe, tq: await prepareTextQuery(q, clean, probe.tq.index) };
}

function memoryScope(probe: Probe, mode: RecallMode, sizes: CandidateSizes): MemoryScope {
  // One day's memories are few (day btree): scoring them all is exact and cheap.
  if (probe.date) return { kind: 'day', day: probe.date, sizes };
  return { kind: mode, sizes };
}

/**
 * Ranks a persona's memories and knowledge for a query. Read-only, in one
 * transaction (the planner settings are SET LOCAL). Hits scoring 0
 * (knowledge matching neither text nor vector) are left out.
 */
export async function recall(ctx: CoreContext, a: RecallArgs, mode: RecallMode = 'candidates'): Promise<RecallHit[]> {
  return (await run(ctx, a, mode, false)).hits;
}

/**
 * The memory browser's search: recall over memories only, and in the same
 * transaction how many memories match the query and the filters at all
 * (match-count.ts), so the page can say "best 10 of 312".
 */
export async function searchMemories(ctx: CoreContext, a: Omit<RecallArgs, 'kinds' | 'date'>): Promise<MemorySearchResult> {
  const { hits, count } = await run(ctx, { ...a, kinds: ['memory'] }, 'candidates', true);
  // The meaning side is counted through HNSW, which is approximate: never say fewer than are shown.
  const shown = hits.filter(isMatch).length;
  return { hits, total: Math.max(count?.total ?? 0, shown), totalIsLowerBound: count?.lowerBound ?? false };
}

async function run(ctx: CoreContext, a: RecallArgs, mode: RecallMode, withCount: boolean): Promise<{ hits: RecallHit[]; count: MatchCount | null }> {
  const limit = a.limit ?? 5;
  const kinds = new Set(a.kinds?.length ? a.kinds : ['memory', 'knowledge']);
  const search = await searchInputs(ctx, a);
  // Before the transaction, a page per statement: after a big import there may be many (staged-pass.ts).
  const staged =
    kinds.has('memory') && mode === 'candidates' && !a.date && search.vector && ctx.db.features.vector
      ? await stagedTopK(ctx.db, { ...a, model: ctx.embedder.model(), vector: encodeVector(search.vector) }, candidateSizes(limit).vector)
      : [];
  const { hits, count } = await ctx.db.transaction(async (tx) => {
    await requirePersona(tx, a.persona);
    const probe = { ...(await probeFor(tx, ctx, a, search)), staged };
    const sizes = candidateSizes(limit, probe.tuning.textPool, probe.tuning.contextPool);
    await tx.exec(indexSettings(sizes, probe.tq.index.topKReadsGin));
    const out: RecallHit[] = [];
    if (kinds.has('memory')) out.push(...(await recallMemories(tx, probe, memoryScope(probe, mode, sizes), limit)));
    if (kinds.has('knowledge')) out.push(...(await recallKnowledge(tx, await knowledgeProbe(tx, a, probe), sizes, limit, mode === 'exact')));
    // Last: it turns bitmap scans back on for the rest of the transaction.
    return { hits: out, count: withCount ? await countMatches(tx, probe) : null };
  });
  const ranked = hits.filter((h) => h.score.final > 0).sort(byScore).slice(0, limit);
  return { hits: a.includeSuperseded ? belowReplacements(ranked) : ranked, count };
}

/**
 * A superseded memory never ranks above the memory that replaced it (or the
 * current end of its chain): it moves to just after that one when both are
 * among the hits. Otherwise the order is the score's.
 */
export function belowReplacements(hits: RecallHit[]): RecallHit[] {
  const byId = new Map(hits.map((h) => [h.id, h]));
  const current = (h: RecallHit): RecallHit | null => {
    let at = h;
    for (let i = 0; i < 100 && at.memory?.supersededBy; i++) {
      const next = byId.get(at.memory.supersededBy);
      if (!next) break;
      at = next;
    }
    return at === h ? null : at;
  };
  const out = hits.filter((h) => !current(h));
  // Each superseded hit goes after its newest replacement and the ones already placed there, best first.
  for (const h of hits) {
    const anchor = current(h);
    if (!anchor) continue;
    let i = out.indexOf(anchor) + 1;
    while (i < out.length && current(out[i]!) === anchor) i++;
    out.splice(i, 0, h);
  }
  return out;
}
