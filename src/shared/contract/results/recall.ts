import { z } from 'zod';
import { RECALL_KINDS } from '../../enums';
import { memoryShape } from '../memories';

export const scoreBreakdown = z.strictObject({
  text: z.number().describe('Normalised text relevance in [0, 1].'),
  cosine: z.number().nullable().describe('1 - cosine distance; null when no current-model vector.'),
  importance: z.number().nullable().describe('0.2 * importance / 10 (memories only).'),
  recency: z.number().nullable().describe('1 / (1 + days) (memories only).'),
  final: z.number(),
  textFromNeighbours: z
    .number()
    .optional()
    .describe('Of `text`, the part inherited from a neighbouring memory (context ranking); absent otherwise.'),
  timeBoost: z
    .number()
    .optional()
    .describe(
      "The factor a memory's score was multiplied by for being written within a time the query names; absent otherwise.",
    ),
});

/** Where in a knowledge hit the question is answered: `start`/`end` index `content`; `page` for PDFs. */
export const knowledgeMatch = z.strictObject({
  start: z.number().optional(),
  end: z.number().optional(),
  page: z.number().nullable().optional(),
});

export const recallHit = z.strictObject({
  kind: z.enum(RECALL_KINDS),
  id: z.string(),
  tag: z.string(),
  content: z.string(),
  score: scoreBreakdown,
  memory: memoryShape.optional(),
  source: z.string().optional(),
  chunkIndex: z.number().optional(),
  match: knowledgeMatch
    .optional()
    .describe('Knowledge: the sentences that matched the question best (offsets into `content`) and their page.'),
});

export const memorySearchResult = z.strictObject({
  hits: z.array(recallHit).describe('The best `limit` hits, best first (recall\'s order).'),
  total: z
    .number()
    .describe(
      'Memories passing the filters that contain a word of the query or are close in meaning ' +
        '(cosine ≥ MEANINGFUL_COSINE, recall-match.ts): the "of N" in "best 10 of N".',
    ),
  totalIsLowerBound: z
    .boolean()
    .describe('True when the meaning side was counted only among the nearest rows, so `total` is a lower bound.'),
});
