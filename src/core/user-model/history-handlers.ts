import { memoryArgs } from '../../shared/contract/memories';
import { userModelArgs } from '../../shared/contract/user-model';
import { AppError } from '../../shared/errors';
import { listActivity } from '../history/activity';
import { memoryHistory, memoryVersion } from '../history/memory-versions';
import { userModelHistory } from '../history/user-model-versions';
import { handler } from '../method';
import { updateMemory } from '../memories/mutate';
import { getMemory } from '../memories/store';
import { supersedeMemory, unsupersedeMemory } from '../memories/supersede';
import { requirePersona } from '../personas/store';
import { writeUserModel } from './write';

// The history's methods (docs/history.md). Restoring a version writes through
// the memories and user-model stores, so these handlers sit with the user
// model, the domain above both the history records and the memories.

export const historyHandlers = {
  'memories.history': handler(memoryArgs['memories.history'], async ({ id }, ctx) => {
    const versions = await memoryHistory(ctx.db, id);
    if (!versions.length) throw new AppError('not_found', `There is no memory ${id}.`);
    return versions;
  }),

  'memories.restoreVersion': handler(memoryArgs['memories.restoreVersion'], async ({ id, version }, ctx, call) => {
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

  'memories.supersede': handler(memoryArgs['memories.supersede'], ({ id, by, reason }, ctx, call) =>
    supersedeMemory(ctx, id, by, { actor: call.actor, reason: reason ?? null }),
  ),

  'memories.unsupersede': handler(memoryArgs['memories.unsupersede'], ({ id }, ctx, call) => unsupersedeMemory(ctx, id, { actor: call.actor })),

  'userModel.history': handler(userModelArgs['userModel.history'], async ({ persona, dimension }, ctx) => {
    await requirePersona(ctx.db, persona);
    return userModelHistory(ctx.db, persona, dimension);
  }),

  'userModel.restoreVersion': handler(
    userModelArgs['userModel.restoreVersion'],
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
    memoryArgs['activity.list'],
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      return listActivity(ctx.db, args);
    },
  ),
};
