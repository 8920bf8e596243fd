import type { Memory } from '../../../shared/api';

const LABELS = {
  pending: { text: 'embedding pending', title: 'Searchable by text now; by meaning once the embedding job runs.' },
  current: { text: 'embedded', title: 'Embedded with the current model: searchable by meaning.' },
  stale: { text: 'embedding stale', title: 'Embedded by another model; backfill re-embeds it.' },
  failed: { text: 'embedding failed', title: 'The embedding job failed; see Jobs to retry.' },
  none: { text: 'text only', title: 'The PostgreSQL server has no pgvector: Hearth stores no vectors and finds this by text.' },
} as const;

export function EmbeddingBadge({ memory }: { memory: Memory }) {
  const label = LABELS[memory.embeddingStatus];
  const title = memory.embeddingError ? `${label.title}\n${memory.embeddingError}` : label.title;
  return (
    <span className={`badge emb-${memory.embeddingStatus}`} data-testid="embedding-status" data-status={memory.embeddingStatus} title={title}>
      {label.text}
    </span>
  );
}
