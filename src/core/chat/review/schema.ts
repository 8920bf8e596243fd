import { z } from 'zod';
import { CATEGORY_MAX } from '../../../shared/contract/limits';
import { importance, uuid } from '../../schemas';
import { dimension } from '../../user-model/write';

const content = z.string().trim().min(1).max(4_000);

export const reviewOutput = z.object({
  userModel: z
    .array(
      z.object({
        dimension,
        content,
        confidence: importance,
      }),
    )
    .max(20),
  memories: z
    .array(
      z.object({
        category: z.string().trim().min(1).max(CATEGORY_MAX),
        content,
        importance,
        confidence: importance,
        // Checked one by one (supersessionProposal): a malformed proposal is
        // dropped with a logged reason, never the item or the whole review.
        supersedes: z.array(z.unknown()).max(10).optional().default([]),
      }),
    )
    .max(30),
});

/** One proposed supersession of an existing memory by a new item. */
export const supersessionProposal = z.object({
  id: uuid,
  reason: z.string().trim().min(1, 'a reason is required').max(500),
  confidence: importance,
});

export type ReviewOutput = z.infer<typeof reviewOutput>;

/**
 * What the review call must answer (sent as response_format json_schema),
 * generated from zod so the two cannot drift. The model is shown each
 * proposal's full shape; the parser above takes them one by one.
 * `io: 'input'` describes what the model writes (before trimming).
 */
export const REVIEW_JSON_SCHEMA: Record<string, unknown> = (() => {
  const asked = reviewOutput.extend({
    memories: z.array(reviewOutput.shape.memories.element.extend({ supersedes: z.array(supersessionProposal).max(10) })).max(30),
  });
  const { $schema: _draft, ...schema } = z.toJSONSchema(asked, { target: 'draft-7', io: 'input' });
  return schema;
})();

/** Only what the reviewer is sure of is written. */
export const MIN_REVIEW_CONFIDENCE = 7;

export const REVIEW_INSTRUCTIONS = `You review a recent stretch of a conversation between a user and their assistant, to keep the assistant's long-term memory complete.
Return JSON with two arrays:
- "userModel": updates to stable facts about the user (dimensions: baseline, preferences, working_patterns, feedback, goals, or another short name). Each update REPLACES the whole dimension, so merge with what the current user model already says.
- "memories": timestamped events worth recalling later (occurrences, milestones, specific conversations), each with a category and importance 1-10.
Give each item a confidence 1-10. Leave out anything already in the current user model or top memories, small talk, and guesses. Empty arrays are a fine answer.
When a new memory makes an existing one untrue (the user moved, changed jobs, ended something), list that existing memory in the item's "supersedes" with its id exactly as shown under "Existing memories", a short reason, and a confidence 1-10. Only what the new item clearly contradicts; otherwise an empty array. The old memory is kept as history, not deleted.`;
