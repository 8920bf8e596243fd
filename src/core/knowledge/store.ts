// The knowledge store: one knowledge_sources row per document, its chunks in
// knowledge_chunks. Parsing and chunking live elsewhere (ingest); this file
// only swaps, lists and deletes what they produce.
import type { KnowledgeSource } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { enqueueEmbeddings } from '../embeddings/enqueue';
import { requirePersona } from '../personas/store';
import type { ChangeMeta } from '../history/meta';
import { trashSourceIn } from '../trash/store';
import { toIso } from '../time';
import { insertWindows, type StoredWindow } from './window-store';

/**
 * Chunks per embedding job. A chunk brings ~10 sentence windows, each a text the model reads
 * (docs/ranking.md, "Sentence windows"), and a job writes its vectors in one transaction at its end:
 * 8 chunks (~90 windows, a few model batches) let a long document become searchable by meaning a
 * few pages at a time instead of all at once when the last of 64 chunks is done.
 */
export const CHUNKS_PER_EMBEDDING_JOB = 8;

export interface SourceChunk {
  content: string;
  pageFrom?: number;
  pageTo?: number;
  /** What the chunk is searched by (contextual-key.ts); the content itself when absent. */
  key?: string;
  /** Its sentence windows (windows.ts), embedded with the chunk. */
  windows?: StoredWindow[];
}

export interface ReplaceSourceInput {
  persona: string;
  source: string;
  kind?: string | null;
  bytes?: number | null;
  pages?: number | null;
  chunks: SourceChunk[];
}

export interface ReplaceSourceResult {
  source: string;
  chunks: number;
  replaced: number;
  jobIds: string[];
}

const CHUNKS_PER_STATEMENT = 100;

async function insertChunks(q: Queryable, persona: string, source: string, chunks: SourceChunk[], first: number): Promise<string[]> {
  const params: unknown[] = [persona, source];
  const values = chunks.map((c, i) => {
    // Postgres text cannot hold NUL, which PDF text extraction sometimes yields.
    params.push(first + i, c.content.replaceAll('\u0000', ''), c.pageFrom ?? null, c.pageTo ?? null, c.key?.replaceAll('\u0000', '') ?? null);
    const b = params.length - 5;
    return `($1, $2, $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5})`;
  });
  const { rows } = await q.query<{ id: string; chunk_index: number }>(
    `INSERT INTO knowledge_chunks (persona, source, chunk_index, content, page_from, page_to, search_key)
     VALUES ${values.join(', ')} RETURNING id, chunk_index`,
    params,
  );
  // RETURNING follows the VALUES order in practice, but nothing promises it: match by index.
  const byIndex = new Map(rows.map((r) => [r.chunk_index, r.id]));
  const ids = chunks.map((_, i) => byIndex.get(first + i)!);
  await insertWindows(q, persona, chunks.flatMap((c, i) => (c.windows ?? []).map((w, j) => ({ chunkId: ids[i]!, index: j, window: w }))));
  return ids;
}

/**
 * Replaces a source's chunks and its knowledge_sources row in one
 * transaction, with the embedding jobs for the new chunks: a failure anywhere
 * leaves the previous version whole, and a document never duplicates.
 */
export async function replaceSource(ctx: CoreContext, input: ReplaceSourceInput): Promise<ReplaceSourceResult> {
  const source = input.source.trim();
  if (!source) throw new AppError('invalid_args', 'A knowledge source needs a name.');
  const result = await ctx.db.transaction(async (tx) => {
    await requirePersona(tx, input.persona);
    const { affectedRows: replaced } = await tx.query('DELETE FROM knowledge_chunks WHERE persona = $1 AND source = $2', [
      input.persona,
      source,
    ]);
    await tx.query(
      `INSERT INTO knowledge_sources (persona, source, kind, bytes, pages, ingested_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (persona, source) DO UPDATE
       SET kind = EXCLUDED.kind, bytes = EXCLUDED.bytes, pages = EXCLUDED.pages, ingested_at = EXCLUDED.ingested_at`,
      [input.persona, source, input.kind ?? null, input.bytes ?? null, input.pages ?? null, ctx.now()],
    );
    const ids: string[] = [];
    for (let i = 0; i < input.chunks.length; i += CHUNKS_PER_STATEMENT) {
      ids.push(...(await insertChunks(tx, input.persona, source, input.chunks.slice(i, i + CHUNKS_PER_STATEMENT), i)));
    }
    const jobIds = await enqueueEmbeddings(tx, input.persona, 'knowledge', ids, CHUNKS_PER_EMBEDDING_JOB);
    return { source, chunks: ids.length, replaced, jobIds };
  });
  ctx.events.emit('knowledge.changed', { persona: input.persona, source });
  return result;
}

interface SourceRow {
  source: string;
  kind: string | null;
  bytes: string | number | null;
  pages: number | null;
  ingested_at: Date;
  chunks: number;
  chars: string | number;
  embedded: number;
}

export async function listSources(db: Queryable, persona: string, model: string): Promise<KnowledgeSource[]> {
  const { rows } = await db.query<SourceRow>(
    `SELECT s.source, s.kind, s.bytes, s.pages, s.ingested_at,
            count(c.id)::int AS chunks,
            coalesce(sum(length(c.content)), 0) AS chars,
            (count(c.id) FILTER (WHERE c.embedding IS NOT NULL AND c.embedding_model = $2))::int AS embedded
     FROM knowledge_sources s
     LEFT JOIN knowledge_chunks c ON c.persona = s.persona AND c.source = s.source
     WHERE s.persona = $1
     GROUP BY s.persona, s.source
     ORDER BY s.ingested_at DESC, s.source`,
    [persona, model],
  );
  return rows.map((r) => ({
    source: r.source,
    chunks: Number(r.chunks),
    chars: Number(r.chars),
    embedded: Number(r.embedded),
    kind: r.kind,
    bytes: r.bytes === null ? null : Number(r.bytes),
    pages: r.pages,
    ingestedAt: toIso(r.ingested_at),
  }));
}

/** Moves a source and all its chunks to the persona's trash (docs/trash.md); returns how many chunks went. */
export async function deleteSource(ctx: CoreContext, persona: string, source: string, meta: ChangeMeta = { actor: 'user' }): Promise<number> {
  const deleted = await ctx.db.transaction(async (tx) => {
    // Kept whole first, in this transaction: a crash leaves the source live or in the trash.
    await trashSourceIn(tx, persona, source, meta, ctx.now());
    const { affectedRows: chunks } = await tx.query('DELETE FROM knowledge_chunks WHERE persona = $1 AND source = $2', [persona, source]);
    const { affectedRows: sources } = await tx.query('DELETE FROM knowledge_sources WHERE persona = $1 AND source = $2', [
      persona,
      source,
    ]);
    if (!chunks && !sources) throw new AppError('not_found', `Persona "${persona}" has no knowledge source "${source}".`);
    return chunks;
  });
  ctx.events.emit('knowledge.changed', { persona, source });
  ctx.events.emit('trash.changed', { persona });
  return deleted;
}
