import type { JobQueue } from '../../shared/api';
import { compactionWork } from '../chat/compaction/work';
import { memoryReviewWork } from '../chat/review/work';
import { embeddingsQueue } from '../embeddings/work';
import { ingestQueue } from '../knowledge/ingest';
import { loadWindowTargets, meanVectors, writeWindowVectors } from '../knowledge/window-store';
import type { QueueDef } from '../jobs/types';
import { memoryKeys } from '../memories/context-key';
import { trashPurgeQueue } from '../trash/purge';

/**
 * The work of every background queue (the names: JOB_QUEUES in
 * src/shared/enums.ts). A queue named there without work here is a compile error.
 */
export const queueDefs = {
  embeddings: embeddingsQueue({ memoryKeys, loadWindows: loadWindowTargets, meanVectors, writeWindowVectors }),
  ingest: ingestQueue,
  memory_review: { work: memoryReviewWork, concurrency: 1 },
  compaction: { work: compactionWork, concurrency: 1 },
  trash_purge: trashPurgeQueue,
} satisfies Record<JobQueue, QueueDef>;
