import { compactionWork } from '../chat/compaction/work';
import { memoryReviewWork } from '../chat/review/work';
import { embeddingsQueue } from '../embeddings/work';
import { ingestQueue } from '../knowledge/ingest';
import type { QueueDefs } from './types';

// Every domain that runs background work registers its queue here
// (embeddings, ingest, memory_review, compaction), like handlers.ts for methods.
export const queueDefs: QueueDefs = {
  embeddings: embeddingsQueue,
  ingest: ingestQueue,
  memory_review: { work: memoryReviewWork, concurrency: 1 },
  compaction: { work: compactionWork, concurrency: 1 },
};
