// The SQL recall runs over memories. Scoring reads only what the formula
// needs (no content: full rows are fetched for the final hits alone).
import type { Queryable } from '../db/client';
import { MEMORY_COLUMNS, type MemoryRow } from '../memories/row';
import { Params } from './params';
import type { CandidateSizes, Probe } from './probe';
import { type TextColumns, textColumnsSql } from './text-query';
import { distanceSql, vectorOrderSql } from './vector-order';

/** What the formula needs of one memory. */
export interface ScoringRow extends TextColumns {
  id: string;
  importance: number;
  days: number;
  /** Cosine distance to the query vector; null without a query vector or a current-model row vector. */
  distance: number | null;
  /** The memory's day, YYYY-MM-DD (for the time a query names, time-query.ts). */
  on_day: string;
}

/**
 * Where a seed row came from: the top-k by text ('t'), a memory written just
 * before or after one of those in the same stream ('n', with that match's id
 * in `hit`), the top-k by vector ('v'), the exact top-k by vector among rows
 * whose imported vectors have not joined the graph yet ('s'), the newest of
 * its importance ('r').
 */
export interface SeedRow extends ScoringRow {
  src: 't' | 'n' | 'v' | 's' | 'r';
  hit: string | null;
}

/** Recall reads only current memories unless asked for superseded ones too (docs/history.md). */
function currentOnly(probe: Probe, a = 'm'): string {
  return probe.includeSuperseded ? '' : ` AND ${a}.superseded_by IS NULL`;
}

/**
 * The memory browser's filters as a predicate on alias `a` ('' without any).
 * Every statement that picks or scores rows carries it, so a filtered recall
 * is the formula's best among the matching memories, not a cut of the
 * unfiltered best (docs/ranking.md, "Filters").
 */
export function filterSql(probe: Pick<Probe, 'filters'>, p: Params, a = 'm'): string {
  const f = probe.filters;
  if (!f) return '';
  const out: string[] = [];
  if (f.category !== undefined) out.push(`${a}.category = ${p.add(f.category)}`);
  if (f.importanceMin !== undefined) out.push(`${a}.importance >= ${p.add(f.importanceMin)}`);
  if (f.importanceMax !== undefined) out.push(`${a}.importance <= ${p.add(f.importanceMax)}`);
  if (f.dayFrom !== undefined) out.push(`${a}.day >= ${p.add(f.dayFrom)}::date`);
  if (f.dayTo !== undefined) out.push(`${a}.day <= ${p.add(f.dayTo)}::date`);
  if (f.origin !== undefined) out.push(`${a}.origin = ${p.add(f.origin)}`);
  return out.map((c) => ` AND ${c}`).join('');
}

/** The rows recall may consider: current ones (unless asked otherwise) that pass the filters. */
function inScope(probe: Probe, p: Params, a = 'm'): string {
  return currentOnly(probe, a) + filterSql(probe, p, a);
}

function scoringColumns(probe: Probe, p: Params, a = 'm'): string {
  return `${a}.id, ${a}.importance, ${textColumnsSql(probe.tq, a, p)}, ${distanceSql(probe, a, p, true)} AS distance,
    extract(epoch FROM (${p.add(probe.now)}::timestamptz - ${a}.inserted_at))::float8 / 86400 AS days,
    to_char(${a}.day, 'YYYY-MM-DD') AS on_day`;
}

/**
 * A text match's neighbours: the memories written just before and after it on
 * the same day, from the same stream — same origin and same conversation (a
 * chat, an imported log). Memories written by hand stand alone.
 */
function neighboursSql(probe: Probe, p: Params, k: CandidateSizes): string {
  const next = (x: string, cmp: '<' | '>', order: 'ASC' | 'DESC') => `(SELECT ${x}.id FROM memories ${x}
    WHERE ${x}.persona = h.persona AND ${x}.day = h.day AND ${x}.origin = h.origin
      AND ${x}.conversation_id IS NOT DISTINCT FROM h.conversation_id AND h.origin <> 'manual'
      AND ${x}.seq ${cmp} h.seq${currentOnly(probe, x)} ORDER BY ${x}.seq ${order} LIMIT 1)`;
  const filters = filterSql(probe, p, 'x');
  // Only the best `context` matches lend context: h holds the text matches best first (its ORDER BY … LIMIT).
  const h = k.context < k.text ? `(SELECT * FROM h LIMIT ${p.add(k.context)}) h` : 'h';
  if (!filters) return `SELECT 'n', n.id, h.id FROM ${h} CROSS JOIN LATERAL (${next('x', '<', 'DESC')} UNION ALL ${next('x', '>', 'ASC')}) n`;
  // The neighbour is the memory written just before or after, whatever the filters;
  // it joins the seeds only when it passes them.
  return `SELECT 'n', n.id, h.id FROM ${h} CROSS JOIN LATERAL (SELECT x.id FROM memories x
    WHERE x.id IN (${next('y', '<', 'DESC')} UNION ALL ${next('y', '>', 'ASC')})${filters}) n`;
}

/**
 * In one statement: the top-k by text (the index's order: the same k rows
 * whichever path asks) with their stream neighbours, and unless `textOnly`,
 * the top-k by vector (HNSW) and the `recent` newest rows of each importance
 * level. Relies on recall's planner settings (probe.ts) to walk the bm25,
 * HNSW and btree indexes.
 *
 * The indexes pick ids only; the formula's columns are then computed once per
 * distinct row, in one place in the plan (not in each of five branches), and
 * come back as two JSON values instead of a few hundred rows, each of which
 * costs more to pass through the database's wire protocol than its columns
 * cost to compute (docs/ranking.md, "What one recall costs").
 */
export async function seedRows(q: Queryable, probe: Probe, k: CandidateSizes, textOnly = false): Promise<SeedRow[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const parts: string[] = [];
  let withText = '';
  if (probe.tq.lexemes.length && k.text > 0) {
    const scope = (sp: Params) => `m.persona = ${sp.add(probe.persona)}${inScope(probe, sp)}`;
    const { where, order } = await probe.tq.index.topK(q, probe.tq, 'memories', 'm', scope, k.text, p);
    withText = `h AS MATERIALIZED (SELECT m.persona, m.day, m.origin, m.conversation_id, m.seq, m.id
      FROM memories m WHERE m.persona = ${persona} AND ${where}${inScope(probe, p)} ORDER BY ${order} LIMIT ${p.add(k.text)}), `;
    parts.push(`SELECT 't' AS src, h.id, NULL::uuid AS hit FROM h`);
    if (k.context > 0) parts.push(neighboursSql(probe, p, k));
  }
  if (!textOnly && probe.vector && k.vector > 0) {
    const { where, order } = vectorOrderSql({ ...probe, vector: probe.vector }, 'm', p);
    parts.push(`SELECT 'v', v.id, NULL::uuid FROM (
      SELECT m.id FROM memories m
      WHERE m.persona = ${persona} AND ${where}${inScope(probe, p)} ORDER BY ${order} LIMIT ${p.add(k.vector)}) v`);
    // An import's vectors wait outside the graph until the embeddings queue places them (embeddings/staged.ts):
    // read exactly meanwhile (staged-pass.ts, before this transaction), they are found by meaning from the
    // moment the persona is listed.
    if (probe.staged?.length) {
      parts.push(`SELECT 's', m.id, NULL::uuid FROM memories m
        WHERE m.persona = ${persona} AND m.id = ANY(${p.add(probe.staged)}::uuid[])${inScope(probe, p)}`);
    }
  }
  if (!textOnly && k.recent > 0) {
    parts.push(`SELECT 'r', r.id, NULL::uuid FROM generate_series(1, 10) AS g(imp)
      CROSS JOIN LATERAL (SELECT m.id FROM memories m
        WHERE m.persona = ${persona} AND m.importance = g.imp${inScope(probe, p)} ORDER BY m.inserted_at DESC LIMIT ${p.add(k.recent)}) r`);
  }
  if (!parts.length) return [];
  const { rows } = await q.query<{ seeds: [SeedRow['src'], string, string | null][] | null; scored: ScoringRow[] | null }>(
    `WITH ${withText}c(src, id, hit) AS (${parts.map((s) => `(${s})`).join(' UNION ALL ')})
     SELECT (SELECT json_agg(json_build_array(c.src, c.id, c.hit)) FROM c) AS seeds,
       (SELECT json_agg(s) FROM (SELECT ${scoringColumns(probe, p)} FROM memories m WHERE m.id = ANY(ARRAY(SELECT c.id FROM c))) s) AS scored`,
    p.values,
  );
  const scored = new Map((rows[0]?.scored ?? []).map((r) => [r.id, fromJson(r)]));
  return (rows[0]?.seeds ?? []).flatMap(([src, id, hit]) => {
    const row = scored.get(id);
    return row ? [{ ...row, src, hit }] : [];
  });
}

/** Scoring rows of one day's memories of the persona, or of all of them (the exact scan). */
export async function scoringRows(q: Queryable, probe: Probe, day: string | null): Promise<ScoringRow[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const cols = scoringColumns(probe, p);
  const onDay = day === null ? '' : ` AND m.day = ${p.add(day)}::date`;
  const { rows } = await q.query<ScoringRow>(`SELECT ${cols} FROM memories m WHERE m.persona = ${persona}${onDay}${inScope(probe, p)}`, p.values);
  return rows;
}

/** Per importance level, rows inserted since a cutoff (rows with a current-model vector: since `sinceVector`), newest first. */
export interface LevelWindow {
  importance: number;
  since: Date;
  sinceVector: Date;
}

/** Rows the score bound cannot rule out (memory-bounds.ts), excluding those already scored; at most `cap` a level. */
export async function windowRows(q: Queryable, probe: Probe, windows: LevelWindow[], seen: string[], cap: number): Promise<ScoringRow[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const cols = scoringColumns(probe, p);
  // One JSON value, not a row each: see seedRows.
  const { rows } = await q.query<{ scored: ScoringRow[] | null }>(
    `SELECT json_agg(w) AS scored FROM unnest(${p.add(windows.map((w) => w.importance))}::int[], ${p.add(windows.map((w) => w.since))}::timestamptz[],
        ${p.add(windows.map((w) => w.sinceVector))}::timestamptz[]) AS c(imp, since, since_vector)
     CROSS JOIN LATERAL (SELECT ${cols} FROM memories m
       WHERE m.persona = ${persona} AND m.importance = c.imp AND m.inserted_at >= c.since
         AND (m.inserted_at >= c.since_vector OR m.embedding_model IS DISTINCT FROM ${p.add(probe.model)} OR m.embedding IS NULL)
         AND m.id <> ALL(${p.add(seen)}::uuid[])${inScope(probe, p)}
       ORDER BY m.inserted_at DESC LIMIT ${p.add(cap)}) w`,
    p.values,
  );
  return (rows[0]?.scored ?? []).map(fromJson);
}

/**
 * A scoring row as JSON gives it: a zero vector's cosine distance, NaN, arrives as the string "NaN"
 * (JSON has no NaN) and is made the number again; every finite float8 arrives exactly (Postgres
 * writes the shortest text that reads back as the same double).
 */
function fromJson(r: ScoringRow): ScoringRow {
  return typeof r.distance === 'string' ? { ...r, distance: Number(r.distance) } : r;
}

/** The full rows of the final hits. */
export async function memoryRowsById(q: Queryable, ids: string[]): Promise<Map<string, MemoryRow>> {
  if (!ids.length) return new Map();
  const { rows } = await q.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ANY($1::uuid[])`, [ids]);
  return new Map(rows.map((r) => [r.id, r]));
}
