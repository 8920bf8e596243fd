import type { EmbeddingStatus, Memory, MemoryOrigin } from '../../shared/api';
import { toIso } from '../time';

/** Columns every memory query selects (never the vector itself: it is 6 kB a row). */
export const MEMORY_COLUMNS = `m.id, m.persona, m.category, m.content, m.importance, m.day, m.origin,
  (m.embedding IS NOT NULL AND m.embedding_model IS NOT NULL) AS has_embedding, m.embedding_model, m.embedding_error,
  pg_typeof(m.embedding) = 'bytea'::regtype AS no_vectors,
  m.conversation_id, m.inserted_at, m.updated_at, m.superseded_by, m.superseded_at,
  ARRAY(SELECT s.id FROM memories s WHERE s.superseded_by = m.id ORDER BY s.inserted_at, s.id) AS supersedes`;

export interface MemoryRow {
  id: string;
  persona: string;
  category: string | null;
  content: string;
  importance: number;
  day: string;
  origin: MemoryOrigin;
  has_embedding: boolean;
  embedding_model: string | null;
  embedding_error: string | null;
  /** The embedding column is bytea: a server without pgvector, where no vector is ever stored. */
  no_vectors: boolean;
  conversation_id: string | null;
  inserted_at: Date;
  updated_at: Date;
  superseded_by: string | null;
  superseded_at: Date | null;
  supersedes: string[] | null;
}

export function embeddingStatus(
  row: { has_embedding: boolean; embedding_model: string | null; embedding_error: string | null; no_vectors?: boolean },
  currentModel: string,
): EmbeddingStatus {
  // Text-only (docs/server-mode.md): no job will ever embed it, so never "pending". The column's own type says so,
  // which every query selecting MEMORY_COLUMNS reads at no cost.
  if (row.no_vectors) return 'none';
  if (row.has_embedding && row.embedding_model === currentModel) return 'current';
  if (row.embedding_error) return 'failed';
  if (row.has_embedding) return 'stale';
  return 'pending';
}

export function toMemory(r: MemoryRow, currentModel: string): Memory {
  return {
    id: r.id,
    persona: r.persona,
    category: r.category,
    content: r.content,
    importance: r.importance,
    day: r.day,
    origin: r.origin,
    embeddingStatus: embeddingStatus(r, currentModel),
    embeddingModel: r.embedding_model,
    embeddingError: r.embedding_error,
    conversationId: r.conversation_id,
    insertedAt: toIso(r.inserted_at),
    updatedAt: toIso(r.updated_at),
    supersededBy: r.superseded_by,
    supersededAt: r.superseded_at ? toIso(r.superseded_at) : null,
    supersedes: r.supersedes ?? [],
  };
}
