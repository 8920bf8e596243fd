import type { QueueDefs } from './types';

// Every domain that runs background work registers its queue here
// (embeddings, ingest, memory_review, compaction), like handlers.ts for methods.
export const queueDefs: QueueDefs = {};
