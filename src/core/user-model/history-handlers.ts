import { z } from 'zod';
import { ACTOR_KINDS } from '../../shared/actor';
import { AppError } from '../../shared/errors';
import { listActivity } from '../history/activity';
import { memoryHistory, memoryVersion } from '../history/memory-versions';
import { userModelHistory } from '../history/user-model-versions';
import { handler } from '../method';
import { updateMemory } from '../memories/mutate';
import { getMemory } from '../memories/store';
import { supersedeMemory, unsupersedeMemory } from '../memories/supersede';
import { requirePersona } from '../personas/store';
import { personaId, uuid } from '../schemas';
import { dimension, writeUserModel } from './write';

// The history's methods (docs/history.md). Restoring a version writes through
// the memories and user-model stores, so these handlers sit with the user
// model, the domain above both the history records and the memories.

const version = z.number().int().min(1);
const reason = z.string().max(500).optional();

export const historyHandlers = {
  'memories.history': handler(z.object({ id: uuid }).strict(), async ({ id }, ctx) => {
    const versions = await memoryHistory(ctx.db, id);
    if (!versions.length) throw new AppError('not_found', `There is no memory ${id}.`);
    return versions;
  }),

  'memories.restoreVersion': handler(z.object({ id: uuid, version }).strict(), async ({ id, version }, ctx, call) => {
    const v = await memoryVersion(ctx.db, id, version);
    if (!v) throw new AppError('not_found', `Memory ${id} has no version ${version}.`);
    // A deleted memory comes back through the browser's undo (memories.restore), not here.
    await getMemory(ctx.db, id, ctx.embedder.model());
    return updateMemory(
      ctx,
      id,
      { content: v.content, category: v.category, importance: v.importance, day: v.day },
      { actor: call.actor, reason: `restored version ${version}` },
      { change: 'restore' },
    );
  }),

  'memories.supersede': handler(z.object({ id: uuid, by: uuid, reason }).strict(), ({ id, by, reason }, ctx, call) =>
    supersedeMemory(ctx, id, by, { actor: call.actor, reason: reason ?? null }),
  ),

  'memories.unsupersede': handler(z.object({ id: uuid }).strict(), ({ id }, ctx, call) => unsupersedeMemory(ctx, id, { actor: call.actor })),

  'userModel.history': handler(z.object({ persona: personaId, dimension }).strict(), async ({ persona, dimension }, ctx) => {
    await requirePersona(ctx.db, persona);
    return userModelHistory(ctx.db, persona, dimension);
  }),

  'userModel.restoreVersion': handler(
    z.object({ persona: personaId, dimension, version }).strict(),
    async ({ persona, dimension, version }, ctx, call) => {
      await requirePersona(ctx.db, persona);
      const v = (await userModelHistory(ctx.db, persona, dimension)).find((x) => x.version === version);
      if (!v) throw new AppError('not_found', `The dimension "${dimension}" has no version ${version}.`);
      if (v.content === null || v.confidence === null) {
        throw new AppError('invalid_args', `Version ${version} of "${dimension}" is its deletion; pick a version with content.`);
      }
      return writeUserModel(
        ctx,
        persona,
        { dimension, content: v.content, confidence: v.confidence },
        { actor: call.actor, reason: `restored version ${version}` },
        'restore',
      );
    },
  ),

  'activity.list': handler(
    z
      .object({
        persona: personaId,
        actorKind: z.enum(ACTOR_KINDS).optional(),
        kind: z.enum(['memory', 'userModel']).optional(),
        limit: z.number().int().min(1).max(500).default(100),
        before: z.string().max(500).nullable().optional(),
      })
      .strict(),
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      return listActivity(ctx.db, args);
    },
  ),
};
