// The query vector in SQL: a row's distance to it, and the HNSW top-k through
// whichever index holds the model's vectors (migrations/0004): the built-in
// model's as 512-d, every other model's as 1536-d.
import { EMBEDDING_DEFAULTS, modelTag } from '../providers/embeddings/config';
import type { Params } from './params';
import type { Probe } from './probe';

const LOCAL = EMBEDDING_DEFAULTS.local!;
/** Written into the SQL as a literal: the planner only uses a partial index whose predicate it can read in the query. */
const LOCAL_TAG = modelTag(LOCAL);

/**
 * Cosine distance of row alias `a` to the query vector; NULL without one, or for a row without a current-model vector.
 * `staged`: a vector an import brought for the current model that has not joined its graph yet counts too
 * (the table must have `staged_model`; docs/import-at-scale.md).
 */
export function distanceSql(probe: Probe, a: string, p: Params, staged = false): string {
  if (!probe.vector) return 'NULL::float8';
  const model = p.add(probe.model);
  const tagged = staged ? `(${a}.embedding_model = ${model} OR (${a}.embedding_model IS NULL AND ${a}.staged_model = ${model}))` : `${a}.embedding_model = ${model}`;
  return `CASE WHEN ${a}.embedding IS NOT NULL AND ${tagged} THEN (${a}.embedding <=> ${p.add(probe.vector)}::vector)::float8 END`;
}

/** Filter and order of a top-k-by-vector query over alias `a`; the probe must have a vector. */
export function vectorOrderSql(probe: Probe & { vector: Uint8Array }, a: string, p: Params): { where: string; order: string } {
  const v = `${p.add(probe.vector)}::vector`;
  if (probe.model === LOCAL_TAG) {
    const d = LOCAL.dimensions;
    return {
      where: `${a}.embedding_model = '${LOCAL_TAG}'`,
      order: `subvector(${a}.embedding, 1, ${d})::vector(${d}) <=> subvector(${v}, 1, ${d})::vector(${d})`,
    };
  }
  return { where: `${a}.embedding_model = ${p.add(probe.model)} AND ${a}.embedding_model <> '${LOCAL_TAG}'`, order: `${a}.embedding <=> ${v}` };
}

/**
 * A staged row's cosine distance to the query vector (the caller checks the row is staged for the probe's
 * model). The built-in model's vectors are compared over their 512 dimensions, as its graph compares them:
 * the zero padding changes no distance but would triple the work of an exact pass over thousands of rows.
 */
export function stagedDistanceSql(probe: Pick<Probe, 'model'> & { vector: Uint8Array }, a: string, p: Params): string {
  const v = `${p.add(probe.vector)}::vector`;
  if (probe.model !== LOCAL_TAG) return `(${a}.embedding <=> ${v})::float8`;
  const d = LOCAL.dimensions;
  return `(subvector(${a}.embedding, 1, ${d})::vector(${d}) <=> subvector(${v}, 1, ${d})::vector(${d}))::float8`;
}
