import { trashArgs } from '../../shared/contract/trash';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { readSettings } from '../settings/store';
import { emptyTrash, listTrash, type RelinkReplaced, restoreFromTrash } from './store';

/** The trash's methods; `relink` is the memories domain's (memories/relink.ts), given by the composition root. */
export const trashHandlers = (relink: RelinkReplaced) => ({
  'trash.list': handler(trashArgs['trash.list'], async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return listTrash(ctx.db, persona, (await readSettings(ctx)).trashDays);
  }),

  'trash.restore': handler(trashArgs['trash.restore'], async ({ id }, ctx, call) =>
    restoreFromTrash(ctx, id, { actor: call.actor }, (await readSettings(ctx)).trashDays, relink),
  ),

  // Emptying is for good: only an explicit, confirmed request (the UI asks first) does it.
  'trash.empty': handler(
    trashArgs['trash.empty'],
    async ({ persona }, ctx) => {
      await requirePersona(ctx.db, persona);
      return { emptied: await emptyTrash(ctx, persona) };
    },
  ),
});
