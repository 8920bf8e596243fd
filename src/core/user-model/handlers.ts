import { z } from 'zod';
import { handler } from '../method';
import { latestTrashId } from '../trash/store';
import { requirePersona } from '../personas/store';
import { personaId, text } from '../schemas';
import { userModelBlock } from './block';
import { listUserModel } from './store';
import { confidence, dimension, MAX_USER_MODEL_CHARS, removeUserModel, writeUserModel } from './write';

export const userModelHandlers = {
  'userModel.list': handler(z.object({ persona: personaId }).strict(), async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return listUserModel(ctx.db, persona);
  }),

  'userModel.upsert': handler(
    z
      .object({ persona: personaId, dimension, content: text(MAX_USER_MODEL_CHARS), confidence: confidence.default(5) })
      .strict(),
    ({ persona, ...entry }, ctx, call) => writeUserModel(ctx, persona, entry, { actor: call.actor }),
  ),

  'userModel.delete': handler(z.object({ persona: personaId, dimension }).strict(), async ({ persona, dimension }, ctx, call) => {
    const deleted = await removeUserModel(ctx, persona, dimension, { actor: call.actor });
    return { deleted, trashId: deleted ? await latestTrashId(ctx.db, persona, 'user_model', dimension) : null };
  }),

  'userModel.block': handler(z.object({ persona: personaId }).strict(), async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return userModelBlock(ctx.db, persona);
  }),
};
