// Tidy up (docs/duplicates.md): the near-duplicates a persona already holds,
// merged by supersession (docs/history.md) or marked "not duplicates".
//
// Candidate pairs come from a blocked comparison, not from every pair: the
// rule merges nothing where each side says something the other does not (its
// "swap" veto), so one side's content words are all in the other. Each memory
// is compared only with the memories holding its rarest content word.
import type { DuplicateGroup, Memory } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import type { ChangeMeta } from '../history/meta';
import { requirePersona } from '../personas/store';
import { factShape, type FactShape, isNearDuplicate, normalisedFact, veto } from './near-duplicate';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './row';
import { supersedeIn } from './supersede';

/** A word held by more memories than this does not block alone (it would pair everything with everything). */
const MAX_POSTINGS = 5_000;

interface Entry {
  row: { id: string; content: string };
  shape: FactShape;
  exact: string;
  /** A 32-bit summary of its words: a word set within another has no bit the other lacks. */
  bits: number;
}

function wordBits(words: Set<string>): number {
  let bits = 0;
  for (const w of words) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    bits |= 1 << (h >>> 27);
  }
  return bits;
}

function subset(small: Set<string>, big: Set<string>): boolean {
  for (const w of small) if (!big.has(w)) return false;
  return true;
}

/** Pairs (indexes into `entries`) the rule could merge: identical text, or one side's content words within the other's. */
function candidatePairs(entries: Entry[]): [number, number][] {
  const postings = new Map<string, number[]>();
  entries.forEach((e, i) => {
    for (const w of e.shape.words) {
      const list = postings.get(w);
      if (list) list.push(i);
      else postings.set(w, [i]);
    }
  });
  const pairs = new Map<string, [number, number]>();
  const add = (i: number, j: number) => {
    const [a, b] = i < j ? [i, j] : [j, i];
    pairs.set(`${a}:${b}`, [a, b]);
  };
  const byText = new Map<string, number>();
  entries.forEach((e, i) => {
    const same = byText.get(e.exact);
    if (same !== undefined) add(same, i);
    else byText.set(e.exact, i);
    if (!e.shape.words.size) return;
    // The rarest of its words: any memory holding all of them holds this one.
    let rarest: number[] | null = null;
    for (const w of e.shape.words) {
      const list = postings.get(w)!;
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    if (!rarest || rarest.length > MAX_POSTINGS) return;
    for (const j of rarest) {
      if (j === i) continue;
      const other = entries[j]!;
      if ((e.bits & ~other.bits) !== 0) continue;
      if (other.shape.words.size >= e.shape.words.size && subset(e.shape.words, other.shape.words)) add(i, j);
    }
  });
  return [...pairs.values()];
}

/** The current model's cosine of each pair, where both memories have a current-model vector. */
async function pairCosines(ctx: CoreContext, ids: [string, string][]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!ids.length || !ctx.db.features.vector) return out;
  const { rows } = await ctx.db.query<{ a: string; b: string; cos: number }>(
    `SELECT p.a, p.b, 1 - (x.embedding <=> y.embedding)::float8 AS cos
       FROM unnest($1::uuid[], $2::uuid[]) AS p(a, b)
       JOIN memories x ON x.id = p.a JOIN memories y ON y.id = p.b
      WHERE x.embedding IS NOT NULL AND y.embedding IS NOT NULL AND x.embedding_model = $3 AND y.embedding_model = $3`,
    [ids.map((p) => p[0]), ids.map((p) => p[1]), ctx.embedder.model()],
  );
  for (const r of rows) out.set(`${r.a}:${r.b}`, Number(r.cos));
  return out;
}

/** Which of the group to keep by default: the most important, then the newest. */
function byKeepFirst(a: Memory, b: Memory): number {
  return b.importance - a.importance || b.insertedAt.localeCompare(a.insertedAt) || a.id.localeCompare(b.id);
}

/** Groups of near-duplicates among the persona's current memories, biggest first; dismissed pairs are not joined. */
export async function duplicateGroups(ctx: CoreContext, persona: string): Promise<DuplicateGroup[]> {
  await requirePersona(ctx.db, persona);
  const model = ctx.embedder.model();
  // Only ids and texts for the whole persona; full rows for the grouped ones only.
  const { rows } = await ctx.db.query<{ id: string; content: string }>(
    `SELECT m.id, m.content FROM memories m WHERE m.persona = $1 AND m.superseded_by IS NULL ORDER BY m.inserted_at, m.id`,
    [persona],
  );
  const entries: Entry[] = rows.map((row) => {
    const shape = factShape(row.content);
    return { row, shape, exact: normalisedFact(row.content), bits: wordBits(shape.words) };
  });
  // The vetoes need no vector: only pairs they leave are looked up.
  const pairs = candidatePairs(entries).filter(([i, j]) => entries[i]!.exact === entries[j]!.exact || !veto(entries[i]!.shape, entries[j]!.shape));
  const cosines = await pairCosines(ctx, pairs.map(([i, j]) => [entries[i]!.row.id, entries[j]!.row.id]));
  const { rows: dismissed } = await ctx.db.query<{ a: string; b: string }>(`SELECT a, b FROM memory_not_duplicates WHERE persona = $1`, [persona]);
  const notPair = new Set(dismissed.map((d) => `${d.a}:${d.b}`));
  const parent = entries.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (const [i, j] of pairs) {
    const [a, b] = [entries[i]!, entries[j]!];
    const key = a.row.id < b.row.id ? `${a.row.id}:${b.row.id}` : `${b.row.id}:${a.row.id}`;
    if (notPair.has(key)) continue;
    const cos = cosines.get(`${a.row.id}:${b.row.id}`) ?? null;
    if (a.exact === b.exact || isNearDuplicate(a.shape, b.shape, cos)) parent[find(i)] = find(j);
  }
  const groups = new Map<number, string[]>();
  entries.forEach((e, i) => {
    const root = find(i);
    const list = groups.get(root) ?? [];
    list.push(e.row.id);
    groups.set(root, list);
  });
  const grouped = [...groups.values()].filter((g) => g.length > 1);
  const { rows: full } = await ctx.db.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ANY($1::uuid[])`, [grouped.flat()]);
  const byId = new Map(full.map((r) => [r.id, toMemory(r, model)]));
  return grouped
    .map((ids) => ids.map((id) => byId.get(id)).filter((m): m is Memory => !!m))
    .filter((g) => g.length > 1)
    .map((g) => {
      const memories = g.sort(byKeepFirst);
      return { keep: memories[0]!.id, memories };
    })
    .sort((x, y) => y.memories.length - x.memories.length || y.keep.localeCompare(x.keep));
}

/** `others` are superseded by `keep` in one transaction: history kept, each undoable (memories.unsupersede). */
export async function mergeMemories(ctx: CoreContext, keep: string, others: string[], meta: ChangeMeta): Promise<Memory[]> {
  const ids = [...new Set(others)].filter((id) => id !== keep);
  if (!ids.length) throw new AppError('invalid_args', 'Name at least one other memory to merge into the kept one.');
  const out = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ persona: string }>('SELECT persona FROM memories WHERE id = $1', [keep]);
    if (!rows[0]) throw new AppError('not_found', `There is no memory ${keep}.`);
    const merged: Memory[] = [];
    for (const id of ids) merged.push(await supersedeIn(tx, ctx, id, keep, { ...meta, reason: meta.reason ?? 'merged as a duplicate' }, rows[0].persona));
    return { persona: rows[0].persona, merged };
  });
  ctx.events.emit('memories.changed', { persona: out.persona, ids: [keep, ...ids], reason: 'update' });
  return out.merged;
}

/** Marks every pair among `ids` as not duplicates of each other: Tidy up will not group them again. */
export async function markNotDuplicates(ctx: CoreContext, ids: string[]): Promise<{ pairs: number }> {
  const unique = [...new Set(ids)].sort();
  if (unique.length < 2) throw new AppError('invalid_args', 'Name at least two memories.');
  const { rows } = await ctx.db.query<{ id: string; persona: string }>('SELECT id, persona FROM memories WHERE id = ANY($1::uuid[])', [unique]);
  if (rows.length !== unique.length) {
    const missing = unique.filter((id) => !rows.some((r) => r.id === id));
    throw new AppError('not_found', `There is no memory ${missing[0]}.`);
  }
  const persona = rows[0]!.persona;
  if (rows.some((r) => r.persona !== persona)) throw new AppError('invalid_args', 'These memories belong to different personas.');
  const a: string[] = [];
  const b: string[] = [];
  for (let i = 0; i < unique.length; i++) for (let j = i + 1; j < unique.length; j++) (a.push(unique[i]!), b.push(unique[j]!));
  await ctx.db.query(
    `INSERT INTO memory_not_duplicates (a, b, persona) SELECT x, y, $3 FROM unnest($1::uuid[], $2::uuid[]) AS p(x, y) ON CONFLICT DO NOTHING`,
    [a, b, persona],
  );
  ctx.events.emit('memories.changed', { persona, ids: unique, reason: 'update' });
  return { pairs: a.length };
}
