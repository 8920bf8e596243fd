import { userModelArgs } from '../../shared/contract/user-model';
import { handler } from '../method';
import { latestTrashId } from '../trash/store';
import { requirePersona } from '../personas/store';
import { userModelBlock } from './block';
import { listUserModel } from './store';
import { removeUserModel, writeUserModel } from './write';

export const userModelHandlers = {
  'userModel.list': handler(userModelArgs['userModel.list'], async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return listUserModel(ctx.db, persona);
  }),

  'userModel.upsert': handler(
    userModelArgs['userModel.upsert'],
    ({ persona, ...entry }, ctx, call) => writeUserModel(ctx, persona, entry, { actor: call.actor }),
  ),

  'userModel.delete': handler(userModelArgs['userModel.delete'], async ({ persona, dimension }, ctx, call) => {
    const deleted = await removeUserModel(ctx, persona, dimension, { actor: call.actor });
    return { deleted, trashId: deleted ? await latestTrashId(ctx.db, persona, 'user_model', dimension) : null };
  }),

  'userModel.block': handler(userModelArgs['userModel.block'], async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return userModelBlock(ctx.db, persona);
  }),
};
