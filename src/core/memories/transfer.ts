// The memories table's side of a persona file (docs/export.md): the pages an
// export reads, as the memories were when it started, and the pages an import
// writes, keeping ids, vectors, write order (seq) and supersession links.
import { randomUUID } from 'node:crypto';
import type { PgliteDb, Queryable } from '../db/client';
import { type PageReader, padVector, type PreparedPage, type Remapped, type Timed, ts, vectorBase64, vectorJoin, vectorSend } from '../db/bulk-rows';
import { copyBinary, type Field } from '../db/copy-binary';
import { DEFAULT_PACE, Pacer } from '../db/pace';

/** A memory to write, its conversation already the one it has here; its vector goes alongside. */
export interface ImportedMemory {
  id: string;
  category: string | null;
  content: string;
  importance: number;
  day: string;
  origin: string;
  conversationId: string | null;
  insertedAt: string;
  updatedAt: string;
  embeddingModel: string | null;
  embeddingError: string | null;
}

/** A memory as a persona file holds it (without the file's own fields). */
export interface ExportedMemory extends ImportedMemory {
  embedding: string | null;
  supersededBy: string | null;
  supersededAt: string | null;
  /** The order memories were written in; the key pages are read by. */
  seq: string;
}

/** The export's mark for memories (selected in one statement with the other tables' marks): the last seq written. */
export const MEMORY_MARK_SQL = '(SELECT coalesce(max(seq), 0) FROM memories WHERE persona = $1)::text';

/**
 * How many memories the persona holds, counted a page of rows at a time by seq
 * and sized by time (db/pace.ts): a count reads each row's heap page (one 6 kB
 * vector a page), and one statement over 50k memories held the database for
 * most of a second (docs/export.md).
 */
export async function countMemories(q: Queryable, persona: string): Promise<number> {
  // At most 512 rows: a row not read since a bulk load costs ~30× one in the cache (its page is written
  // again the first time), and pieces grown on cached rows held the database ~0.2 s on cold ones.
  const pace = new Pacer({ ...DEFAULT_PACE, min: 64, start: 256, max: 512 });
  let total = 0;
  let after = '0';
  for (;;) {
    const size = pace.size;
    const { n, last } = await pace.time(size, async () => {
      const { rows, ms } = await q.query<{ n: number; last: string | null }>(
        `SELECT count(*)::int AS n, max(seq)::text AS last
         FROM (SELECT seq FROM memories WHERE persona = $1 AND seq > $2::bigint ORDER BY seq LIMIT $3) t`,
        [persona, after, size],
      );
      return { ...rows[0]!, ms };
    });
    total += n;
    if (n < size || last === null) return total;
    after = last;
  }
}

/**
 * Memories by seq (same-day neighbours rank together: an import keeps it by
 * writing them in it), up to the marks. A memory changed after the start (a
 * version past `versionMark`) is read as its last version before it; its
 * vector too only if the text is the same. A supersession whose newer memory
 * is past `seqMark` is left out. The memories changed since the start (`c`,
 * usually none) are found once per page by the (persona, id) index: asking
 * each row's history instead cost about a third of the page (docs/export.md).
 */
export function memoryPages(q: Queryable, persona: string, seqMark: string, versionMark: string): PageReader<ExportedMemory> {
  return async (after, limit) => {
    const { rows, ms } = await q.query<{
      id: string; category: string | null; content: string; importance: number; day: string; origin: string;
      conversation_id: string | null; inserted_at: string; updated_at: string; emb: string | null;
      embedding_model: string | null; embedding_error: string | null; seq: string; superseded_by: string | null; superseded_at: string | null;
    }>(
      `SELECT m.id, CASE WHEN v.id IS NULL THEN m.category ELSE v.category END AS category,
              CASE WHEN v.id IS NULL THEN m.content ELSE v.content END AS content,
              CASE WHEN v.id IS NULL THEN m.importance ELSE v.importance END AS importance,
              (CASE WHEN v.id IS NULL THEN m.day ELSE v.day END)::text AS day, m.origin, m.conversation_id,
              ${ts('m.inserted_at')} AS inserted_at, ${ts('CASE WHEN v.id IS NULL THEN m.updated_at ELSE v.valid_from END')} AS updated_at,
              CASE WHEN same THEN ${vectorBase64('b.b')} END AS emb,
              CASE WHEN same THEN coalesce(m.embedding_model, m.staged_model) END AS embedding_model,
              CASE WHEN same THEN m.embedding_error END AS embedding_error, m.seq::text AS seq,
              CASE WHEN n.seq <= $4::bigint THEN n.id END AS superseded_by,
              CASE WHEN n.seq <= $4::bigint
                   THEN ${ts('CASE WHEN v.id IS NULL OR m.superseded_by IS NOT DISTINCT FROM v.superseded_by THEN m.superseded_at ELSE v.valid_from END')}
              END AS superseded_at
       FROM memories m
       CROSS JOIN (SELECT coalesce(array_agg(DISTINCT w.memory_id), '{}') AS ids FROM memory_versions w
                   WHERE w.persona = $1 AND w.id > $3::bigint) c
       LEFT JOIN LATERAL (
         SELECT p.id, p.content, p.category, p.importance, p.day, p.superseded_by, p.valid_from FROM memory_versions p
         WHERE m.id = ANY (c.ids) AND p.memory_id = m.id AND p.id <= $3::bigint ORDER BY p.version DESC LIMIT 1
       ) v ON true
       CROSS JOIN LATERAL (SELECT v.id IS NULL OR v.content = m.content AS same, ${vectorSend(q, 'm.embedding')} AS b) b
       LEFT JOIN memories n ON n.id = CASE WHEN v.id IS NULL THEN m.superseded_by ELSE v.superseded_by END
       WHERE m.persona = $1 AND m.seq > $2::bigint AND m.seq <= $4::bigint ORDER BY m.seq LIMIT ${limit}`,
      [persona, after ? after.seq : '0', versionMark, seqMark],
    );
    const page = rows.map((m) => ({
      id: m.id, category: m.category, content: m.content, importance: m.importance, day: m.day, origin: m.origin,
      conversationId: m.conversation_id, insertedAt: m.inserted_at, updatedAt: m.updated_at, embedding: m.emb,
      embeddingModel: m.embedding_model, embeddingError: m.embedding_error, supersededBy: m.superseded_by, supersededAt: m.superseded_at, seq: m.seq,
    }));
    return { rows: page, ms };
  };
}

/**
 * A page of memories (PreparedPage), written in page order (seq follows it), the vectors
 * staged: no tag yet, so they join no HNSW graph now (migration 0017); their
 * jobs tag them later. An id this database already holds is replaced in the
 * same statement; returns those rows.
 */
export function insertMemoryPage(persona: string, page: ImportedMemory[], vectors: (Uint8Array | null)[]): PreparedPage<{ remapped: Remapped[] }> {
  const join = vectorJoin(vectors, 3);
  const rows = page.map((m, n) => ({
    n, id: m.id, category: m.category, content: m.content, importance: m.importance, day: m.day,
    embedding_model: vectors[n] === null ? m.embeddingModel : null, staged_model: vectors[n] === null ? null : m.embeddingModel,
    embedding_error: m.embeddingError, origin: m.origin, conversation_id: m.conversationId, inserted_at: m.insertedAt, updated_at: m.updatedAt,
  }));
  const json = JSON.stringify(rows);
  return async (q) => {
    const { rows: remapped, ms } = await q.query<Remapped>(
      `WITH r AS MATERIALIZED (
         SELECT r.*, CASE WHEN EXISTS (SELECT 1 FROM memories x WHERE x.id = r.id) THEN gen_random_uuid() ELSE r.id END AS new_id
         FROM json_to_recordset($2::json) AS r(n int, id uuid, category text, content text, importance int, day date, embedding_model text,
                                               staged_model text, embedding_error text, origin text, conversation_id uuid,
                                               inserted_at timestamptz, updated_at timestamptz)
       ), ins AS (
         INSERT INTO memories (id, persona, category, content, importance, day, embedding, embedding_model, staged_model, embedding_error, origin,
                               conversation_id, inserted_at, updated_at)
         SELECT r.new_id, $1, r.category, r.content, r.importance, r.day, ${join.value}, r.embedding_model, r.staged_model, r.embedding_error,
                r.origin, r.conversation_id, r.inserted_at, r.updated_at
         FROM r ${join.sql} ORDER BY r.n
       )
       SELECT n, new_id::text AS id FROM r WHERE new_id <> id`,
      [persona, json, ...join.params],
    );
    return { remapped, ms };
  };
}

/**
 * The embedded database's bulk path for a page (prepared as insertMemoryPage's): ids this database already holds are
 * looked up first (a copy imported next to its original) and replaced, then
 * the page goes in with one binary COPY (db/copy-binary.ts), in page order.
 * Vectors cross whole (the column's type wants all 1,536 components), staged
 * as in insertMemoryPage. Returns the replaced ids.
 */
export function copyMemoryPage(persona: string, page: ImportedMemory[], vectors: (Uint8Array | null)[]): (bulk: PgliteDb) => Promise<Timed<{ remapped: Remapped[] }>> {
  const rows = page.map((m, n): Field[] => {
    const v = vectors[n] ?? null;
    return [
      { t: 'uuid', v: m.id }, { t: 'text', v: persona }, { t: 'text', v: m.category }, { t: 'text', v: m.content },
      { t: 'int4', v: m.importance }, { t: 'date', v: m.day }, { t: 'bytes', v: v === null ? null : padVector(v) },
      { t: 'text', v: v !== null ? null : m.embeddingModel }, { t: 'text', v: v !== null ? m.embeddingModel : null }, { t: 'text', v: m.embeddingError },
      { t: 'text', v: m.origin }, { t: 'uuid', v: m.conversationId }, { t: 'timestamptz', v: m.insertedAt }, { t: 'timestamptz', v: m.updatedAt },
    ];
  });
  return async (bulk) => {
    const { rows: taken } = await bulk.query<{ id: string }>('SELECT id::text AS id FROM memories WHERE id = ANY($1::uuid[])', [page.map((m) => m.id)]);
    const held = new Set(taken.map((t) => t.id));
    const remapped: Remapped[] = [];
    page.forEach((m, n) => {
      if (!held.has(m.id)) return;
      const id = randomUUID();
      remapped.push({ n, id });
      rows[n]![0] = { t: 'uuid', v: id };
    });
    const { ms } = await bulk.copyFrom(
      `COPY memories (id, persona, category, content, importance, day, embedding, embedding_model, staged_model, embedding_error, origin,
                      conversation_id, inserted_at, updated_at) FROM '/dev/blob' WITH (FORMAT binary)`,
      copyBinary(rows),
    );
    // The pacer learns from the COPY: the lookup before it is short.
    return { remapped, ms };
  };
}

const values = (rows: number, cols: number, casts: string[]) =>
  Array.from({ length: rows }, (_, r) => `(${casts.map((c, i) => `$${r * cols + i + 1}${c}`).join(', ')})`).join(', ');

/**
 * Marks memories of the persona as replaced by another of its memories, when
 * ([id, replaced by, at]). Returns how many links were set: one whose newer
 * memory the persona does not hold is not.
 */
export async function linkImportedSupersessions(q: Queryable, persona: string, links: [string, string, string | null][]): Promise<Timed<{ linked: number }>> {
  const params = links.flat();
  const { affectedRows, ms } = await q.query(
    `UPDATE memories m SET superseded_by = v.by, superseded_at = v.at
     FROM (VALUES ${values(links.length, 3, ['::uuid', '::uuid', '::timestamptz'])}) AS v(id, by, at)
     WHERE m.id = v.id AND m.persona = $${links.length * 3 + 1}
       AND EXISTS (SELECT 1 FROM memories n WHERE n.id = v.by AND n.persona = $${links.length * 3 + 1})`,
    [...params, persona],
  );
  return { linked: affectedRows, ms };
}

/** Calls `each` with the content of every memory of the persona, read in pages by seq. */
export async function forEachMemoryContent(q: Queryable, persona: string, each: (content: string) => void): Promise<void> {
  let after = '0';
  for (;;) {
    const { rows } = await q.query<{ content: string; seq: string }>(
      'SELECT content, seq::text AS seq FROM memories WHERE persona = $1 AND seq > $2::bigint ORDER BY seq LIMIT 2000',
      [persona, after],
    );
    for (const r of rows) each(r.content);
    if (rows.length < 2000) return;
    after = rows[rows.length - 1]!.seq;
  }
}
