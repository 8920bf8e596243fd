import { trashArgs } from '../../shared/contract/trash';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { readSettings } from '../settings/store';
import { emptyTrash, listTrash, restoreFromTrash } from './store';

export const trashHandlers = {
  'trash.list': handler(trashArgs['trash.list'], async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return listTrash(ctx.db, persona, (await readSettings(ctx)).trashDays);
  }),

  'trash.restore': handler(trashArgs['trash.restore'], async ({ id }, ctx, call) =>
    restoreFromTrash(ctx, id, { actor: call.actor }, (await readSettings(ctx)).trashDays),
  ),

  // Emptying is for good: only an explicit, confirmed request (the UI asks first) does it.
  'trash.empty': handler(
    trashArgs['trash.empty'],
    async ({ persona }, ctx) => {
      await requirePersona(ctx.db, persona);
      return { emptied: await emptyTrash(ctx, persona) };
    },
  ),
};
