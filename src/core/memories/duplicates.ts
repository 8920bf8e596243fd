// Finding a stored near-duplicate of a text (docs/duplicates.md): a few
// candidates from the indexes (the text index, and the HNSW index when the
// text has a current-model vector), each judged by the rule in
// near-duplicate.ts. Never a scan of the persona's rows.
import type { Memory } from '../../shared/api';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { encodeVector } from '../db/vector';
import { EMBEDDING_DEFAULTS, modelTag } from '../providers/embeddings/config';
import { type MemoryInput, writeMemory } from './mutate';
import { factShape, foldedText, isNearDuplicate, normalisedFact } from './near-duplicate';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './row';
import { personaPrivacy } from '../personas/store';

const LOCAL = EMBEDDING_DEFAULTS.local!;
/** A literal in the SQL, so the planner can use the built-in model's partial index (migrations/0004). */
const LOCAL_TAG = modelTag(LOCAL);

/** Candidates asked of each index: the rule is exacting, so the nearest few are enough. */
const CANDIDATES = 12;

export interface DuplicateMatch {
  memory: Memory;
  /** The current model's cosine, or null when the text part of the rule decided. */
  cosine: number | null;
}

/**
 * The words of a text, as written and in the lexicon's wording, as an OR query
 * for `websearch_to_tsquery`: "hypertension" also looks for "high blood pressure".
 */
function orQuery(text: string): string {
  const words = `${normalisedFact(text)} ${normalisedFact(foldedText(text))}`
    .split(' ')
    .filter((w) => w.length > 1 && w !== 'or');
  return [...new Set(words)].slice(0, 40).join(' or ');
}

function vectorSql(model: string, v: string, p: (x: unknown) => string): { where: string; order: string } {
  if (model === LOCAL_TAG) {
    const d = LOCAL.dimensions;
    return {
      where: `m.embedding_model = '${LOCAL_TAG}'`,
      order: `subvector(m.embedding, 1, ${d})::vector(${d}) <=> subvector(${v}, 1, ${d})::vector(${d})`,
    };
  }
  return { where: `m.embedding_model = ${p(model)} AND m.embedding_model <> '${LOCAL_TAG}'`, order: `m.embedding <=> ${v}` };
}

type CandidateRow = MemoryRow & { cos: number | null };

/** Current (not superseded) memories of the persona near `content` by text or by vector, with their cosine when both have one. */
async function candidates(
  q: Queryable,
  model: string,
  persona: string,
  content: string,
  vector: Float32Array | null,
  exclude: string[],
): Promise<CandidateRow[]> {
  const values: unknown[] = [];
  const p = (x: unknown) => {
    values.push(x);
    return `$${values.length}`;
  };
  const base = `m.persona = ${p(persona)} AND m.superseded_by IS NULL AND NOT (m.id = ANY(${p(exclude)}::uuid[]))`;
  const v = vector ? `${p(encodeVector(vector))}::vector` : null;
  const cos = v ? `CASE WHEN m.embedding IS NOT NULL AND m.embedding_model = ${p(model)} THEN 1 - (m.embedding <=> ${v})::float8 END` : 'NULL::float8';
  const parts = [
    `SELECT m.id FROM memories m, websearch_to_tsquery('english', ${p(orQuery(content))}) tq
      WHERE ${base} AND m.search_vector @@ tq ORDER BY ts_rank(m.search_vector, tq) DESC LIMIT ${CANDIDATES}`,
    `SELECT m.id FROM memories m WHERE ${base} AND lower(m.content) = lower(${p(content)})`,
  ];
  if (v) {
    const { where, order } = vectorSql(model, v, p);
    parts.push(`SELECT m.id FROM memories m WHERE ${base} AND ${where} ORDER BY ${order} LIMIT ${CANDIDATES}`);
  }
  const { rows } = await q.query<CandidateRow>(
    `SELECT ${MEMORY_COLUMNS}, ${cos} AS cos FROM memories m
      WHERE m.id IN (${parts.map((s) => `(${s})`).join(' UNION ')})`,
    values,
  );
  return rows;
}

/**
 * The current model's vector of a text, or null (text-only database, model not
 * answering). With `onlyIfWarm`, null too while the model would first have to
 * load: the editor's check as the person types must not wait seconds for it.
 */
export async function textVector(ctx: CoreContext, persona: string, content: string, onlyIfWarm = false): Promise<Float32Array | null> {
  if (!ctx.db.features.vector) return null;
  const privacy = await personaPrivacy(ctx.db, persona);
  if (onlyIfWarm) {
    let warm = false;
    try {
      warm = ctx.embedder.current(privacy).warm();
    } catch {
      // a local-only persona and a provider off this computer: the text rule decides
    }
    if (!warm) return null;
  }
  return ctx.embedder.embedQuery(content, privacy);
}

/**
 * The persona's stored memory that says the same as `content`, or null. Rows
 * without a current-model vector (and a text without one) are judged by the
 * text part of the rule. `exclude`: ids not to compare with (the memory a
 * supersession replaces).
 */
export async function findNearDuplicate(
  ctx: CoreContext,
  persona: string,
  content: string,
  options: { exclude?: string[]; vector?: Float32Array | null; db?: Queryable } = {},
): Promise<DuplicateMatch | null> {
  const vector = options.vector === undefined ? await textVector(ctx, persona, content) : options.vector;
  const model = ctx.embedder.model();
  const rows = await candidates(options.db ?? ctx.db, model, persona, content, vector, options.exclude ?? []);
  const shape = factShape(content);
  const exact = normalisedFact(content);
  let best: DuplicateMatch | null = null;
  for (const r of rows) {
    const cos = r.cos === null ? null : Number(r.cos);
    const same = normalisedFact(r.content) === exact || isNearDuplicate(shape, factShape(r.content), cos);
    if (!same) continue;
    const rank = normalisedFact(r.content) === exact ? 2 : (cos ?? 0);
    const bestRank = best ? (normalisedFact(best.memory.content) === exact ? 2 : (best.cosine ?? 0)) : -1;
    if (rank > bestRank) best = { memory: toMemory(r, model), cosine: cos };
  }
  return best;
}

export interface CheckedWrite {
  /** The memory written, or the stored one it repeats. */
  memory: Memory;
  /** Set when nothing was written: the id of the stored memory that already says it. */
  duplicateOf: string | null;
}

/** Writes the memory unless the persona already holds it in other words (SPEC: model, review, flush, import and MCP writes). */
export async function writeUnlessDuplicate(ctx: CoreContext, input: MemoryInput): Promise<CheckedWrite> {
  const found = await findNearDuplicate(ctx, input.persona, input.content);
  if (found) return { memory: found.memory, duplicateOf: found.memory.id };
  return { memory: await writeMemory(ctx, input), duplicateOf: null };
}
