import { z } from 'zod';
import { ACTOR_KINDS } from '../actor';
import { EMBEDDING_STATUSES, IMPORT_FORMATS } from '../enums';
import { importance, isoDay, memoryFilters, memoryOrigin, personaId, text, uuid } from './fields';
import { CATEGORY_MAX, CURSOR_MAX, IMPORT_TEXT_MAX, MEMORY_CONTENT_MAX, REASON_MAX } from './limits';

// A person's category may be blank (no category); a model's may not (src/shared/contract/fields.ts).
const category = z
  .string()
  .trim()
  .max(CATEGORY_MAX, `a category is at most ${CATEGORY_MAX} characters`)
  .nullable()
  .optional();

const content = text(MEMORY_CONTENT_MAX);
const version = z.number().int().min(1);

/** A memory as the API returns it (the type Memory, src/shared/types.ts): what the browser's undo sends back. */
export const memoryShape = z
  .object({
    id: uuid,
    persona: personaId,
    category: z.string().max(CATEGORY_MAX).nullable(),
    content,
    importance,
    day: isoDay,
    origin: memoryOrigin,
    embeddingStatus: z.enum(EMBEDDING_STATUSES),
    embeddingModel: z.string().nullable(),
    embeddingError: z.string().nullable(),
    conversationId: uuid.nullable(),
    insertedAt: z.iso.datetime({ offset: true }),
    updatedAt: z.iso.datetime({ offset: true }),
    // Shown by the browser; undoing a deletion re-links what the memory had replaced (docs/history.md).
    /** The newer memory that replaced this one (docs/history.md); null while current. */
    supersededBy: uuid.nullable().optional(),
    supersededAt: z.iso.datetime({ offset: true }).nullable().optional(),
    /** Memories this one replaced. */
    supersedes: z.array(uuid).max(10_000).optional(),
  })
  .strict();

export const memoryArgs = {
  'memories.write': z
    .object({
      persona: personaId,
      content,
      category,
      importance: importance.default(5),
      day: isoDay.optional(),
      origin: memoryOrigin.default('manual'),
    })
    .strict(),
  'memories.update': z
    .object({ id: uuid, content: content.optional(), category, importance: importance.optional(), day: isoDay.optional() })
    .strict(),
  'memories.delete': z.object({ id: uuid }).strict(),
  /** Puts back a memory deleted moments ago (the browser's undo), same id. */
  'memories.restore': z.object({ memory: memoryShape }).strict(),
  'memories.get': z.object({ id: uuid }).strict(),
  'memories.list': z
    .object({
      persona: personaId,
      filters: memoryFilters.default({}),
      limit: z.number().int().min(1).max(500).default(100),
      cursor: z.string().max(CURSOR_MAX).nullable().optional(),
    })
    .strict(),
  'memories.categories': z.object({ persona: personaId }).strict(),
  'memories.topBlock': z.object({ persona: personaId, withIds: z.boolean().optional() }).strict(),
  /** Memories from another tool's export into this persona (origin `import`); `dryRun` previews and writes nothing. */
  'memories.importFrom': z
    .object({
      persona: personaId,
      format: z.enum(IMPORT_FORMATS),
      text: z.string().max(IMPORT_TEXT_MAX).optional(),
      dataBase64: z.string().max(Math.ceil(IMPORT_TEXT_MAX / 3) * 4).optional(),
      dryRun: z.boolean().optional(),
    })
    .strict(),
  /** Every version of one memory, oldest first (docs/history.md). */
  'memories.history': z.object({ id: uuid }).strict(),
  /** Brings back a past version's content, category, importance and day: a new version. */
  'memories.restoreVersion': z.object({ id: uuid, version }).strict(),
  /** Marks `id` as replaced by the newer memory `by` (same persona); nothing is deleted. */
  'memories.supersede': z.object({ id: uuid, by: uuid, reason: z.string().max(REASON_MAX).optional() }).strict(),
  /** Undoes a supersession: `id` is current again. */
  'memories.unsupersede': z.object({ id: uuid }).strict(),
  /** The persona's stored memory that says `content` in other words, or null (docs/duplicates.md). */
  'memories.similar': z.object({ persona: personaId, content, exclude: z.array(uuid).max(100).optional() }).strict(),
  /** Groups of near-duplicates the persona already holds, biggest first (Tidy up). */
  'memories.duplicates': z.object({ persona: personaId }).strict(),
  /** Supersedes `others` by `keep` (history kept, undoable); returns the superseded ones. */
  'memories.merge': z.object({ keep: uuid, others: z.array(uuid).min(1).max(1000) }).strict(),
  /** These memories are not duplicates of each other: Tidy up does not group them again. */
  'memories.notDuplicates': z.object({ ids: z.array(uuid).min(2).max(100) }).strict(),
  /** The latest changes across a persona's memories and user model, newest first. */
  'activity.list': z
    .object({
      persona: personaId,
      actorKind: z.enum(ACTOR_KINDS).optional(),
      kind: z.enum(['memory', 'userModel']).optional(),
      limit: z.number().int().min(1).max(500).default(100),
      before: z.string().max(CURSOR_MAX).nullable().optional(),
    })
    .strict(),
};
