import { z } from 'zod';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { personaId, text } from '../schemas';
import { userModelBlock } from './block';
import { deleteUserModel, listUserModel } from './store';
import { confidence, dimension, MAX_USER_MODEL_CHARS, writeUserModel } from './write';

export const userModelHandlers = {
  'userModel.list': handler(z.object({ persona: personaId }).strict(), async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return listUserModel(ctx.db, persona);
  }),

  'userModel.upsert': handler(
    z
      .object({ persona: personaId, dimension, content: text(MAX_USER_MODEL_CHARS), confidence: confidence.default(5) })
      .strict(),
    ({ persona, ...entry }, ctx) => writeUserModel(ctx, persona, entry),
  ),

  'userModel.delete': handler(z.object({ persona: personaId, dimension }).strict(), async ({ persona, dimension }, ctx) => {
    await requirePersona(ctx.db, persona);
    const deleted = await deleteUserModel(ctx.db, persona, dimension);
    if (deleted) ctx.events.emit('userModel.changed', { persona });
    return { deleted };
  }),

  'userModel.block': handler(z.object({ persona: personaId }).strict(), async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return userModelBlock(ctx.db, persona);
  }),
};
