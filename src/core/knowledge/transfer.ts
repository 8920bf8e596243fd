// The knowledge tables' side of a persona file (docs/export.md): documents
// (knowledge_sources) and their chunks read a page at a time by an export,
// and written by an import with their ids and vectors.
import { AppError } from '../../shared/errors';
import type { Queryable } from '../db/client';
import { type PageReader, type PreparedPage, type Remapped, ts, vectorBase64, vectorJoin, vectorSend } from '../db/bulk-rows';

/** A document as a persona file holds it. */
export interface SourceRow {
  source: string;
  kind: string | null;
  bytes: number | null;
  pages: number | null;
  ingestedAt: string;
}

/** A chunk as a persona file holds it. */
export interface ChunkRow {
  id: string;
  source: string;
  chunkIndex: number;
  content: string;
  pageFrom: number | null;
  pageTo: number | null;
  embedding: string | null;
  embeddingModel: string | null;
  embeddingError: string | null;
  insertedAt: string;
}

/** A chunk to write: as the file holds it, its vector alongside. */
export type ImportedChunk = Omit<ChunkRow, 'embedding'>;

export async function countKnowledge(q: Queryable, persona: string): Promise<number> {
  let n = 0;
  for (const table of ['knowledge_sources', 'knowledge_chunks'] as const) {
    n += (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE persona = $1`, [persona])).rows[0]?.n ?? 0;
  }
  return n;
}

/** Documents by name. */
export function sourcePages(q: Queryable, persona: string): PageReader<SourceRow> {
  return async (after, limit) => {
    const { rows, ms } = await q.query<{ source: string; kind: string | null; bytes: string | null; pages: number | null; ingested_at: string }>(
      `SELECT source, kind, bytes::text AS bytes, pages, ${ts('ingested_at')} AS ingested_at
       FROM knowledge_sources WHERE persona = $1 AND source > $2 ORDER BY source LIMIT ${limit}`,
      [persona, after ? after.source : ''],
    );
    const page = rows.map((s) => ({ source: s.source, kind: s.kind, bytes: s.bytes === null ? null : Number(s.bytes), pages: s.pages, ingestedAt: s.ingested_at }));
    return { rows: page, ms };
  };
}

/** One document's chunks in order. */
export function chunkPages(q: Queryable, persona: string, source: string): PageReader<ChunkRow> {
  return async (after, limit) => {
    const { rows, ms } = await q.query<{
      id: string; chunk_index: number; content: string; page_from: number | null; page_to: number | null; emb: string | null;
      embedding_model: string | null; embedding_error: string | null; inserted_at: string;
    }>(
      `SELECT id, chunk_index, content, page_from, page_to, ${vectorBase64(vectorSend(q, 'embedding'))} AS emb,
              coalesce(embedding_model, staged_model) AS embedding_model, embedding_error, ${ts('inserted_at')} AS inserted_at
       FROM knowledge_chunks WHERE persona = $1 AND source = $2 AND chunk_index > $3 ORDER BY chunk_index LIMIT ${limit}`,
      [persona, source, after ? after.chunkIndex : -1],
    );
    const page = rows.map((c) => ({
      id: c.id, source, chunkIndex: c.chunk_index, content: c.content, pageFrom: c.page_from, pageTo: c.page_to, embedding: c.emb,
      embeddingModel: c.embedding_model, embeddingError: c.embedding_error, insertedAt: c.inserted_at,
    }));
    return { rows: page, ms };
  };
}

/**
 * A document is replaced as a whole (ingestion): if that happened while its
 * chunks were read, they may mix two versions. Says so rather than let a torn
 * document be written.
 */
export async function checkSourceUnchanged(q: Queryable, persona: string, s: SourceRow): Promise<void> {
  const { rows } = await q.query<{ at: string }>(`SELECT ${ts('ingested_at')} AS at FROM knowledge_sources WHERE persona = $1 AND source = $2`, [
    persona,
    s.source,
  ]);
  if (rows[0]?.at !== s.ingestedAt) {
    throw new AppError('conflict', `"${s.source}" was replaced or removed while it was being exported. Export the persona again.`);
  }
}

export async function insertImportedSource(q: Queryable, persona: string, r: SourceRow): Promise<void> {
  await q.query(
    `INSERT INTO knowledge_sources (persona, source, kind, bytes, pages, ingested_at) VALUES ($1, $2, $3, $4, $5, $6::timestamptz)`,
    [persona, r.source, r.kind, r.bytes, r.pages, r.ingestedAt],
  );
}

/**
 * A page of chunks (PreparedPage), the vectors staged as a memory's are
 * (memories/transfer.ts). An id this database already holds is replaced in
 * the same statement; returns those rows.
 */
export function insertChunkPage(persona: string, page: ImportedChunk[], vectors: (Uint8Array | null)[]): PreparedPage<{ remapped: Remapped[] }> {
  const join = vectorJoin(vectors, 3);
  const rows = page.map((c, n) => ({
    n, id: c.id, source: c.source, chunk_index: c.chunkIndex, content: c.content, page_from: c.pageFrom, page_to: c.pageTo,
    embedding_model: vectors[n] === null ? c.embeddingModel : null, staged_model: vectors[n] === null ? null : c.embeddingModel,
    embedding_error: c.embeddingError, inserted_at: c.insertedAt,
  }));
  const json = JSON.stringify(rows);
  return async (q) => {
    const { rows: remapped, ms } = await q.query<Remapped>(
      `WITH r AS MATERIALIZED (
         SELECT r.*, CASE WHEN EXISTS (SELECT 1 FROM knowledge_chunks x WHERE x.id = r.id) THEN gen_random_uuid() ELSE r.id END AS new_id
         FROM json_to_recordset($2::json) AS r(n int, id uuid, source text, chunk_index int, content text, page_from int, page_to int,
                                               embedding_model text, staged_model text, embedding_error text, inserted_at timestamptz)
       ), ins AS (
         INSERT INTO knowledge_chunks (id, persona, source, chunk_index, content, page_from, page_to, embedding, embedding_model, staged_model,
                                       embedding_error, inserted_at)
         SELECT r.new_id, $1, r.source, r.chunk_index, r.content, r.page_from, r.page_to, ${join.value}, r.embedding_model, r.staged_model,
                r.embedding_error, r.inserted_at
         FROM r ${join.sql} ORDER BY r.n
       )
       SELECT n, new_id::text AS id FROM r WHERE new_id <> id`,
      [persona, json, ...join.params],
    );
    return { remapped, ms };
  };
}
