import { z } from 'zod';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { personaId, uuid } from '../schemas';
import { readSettings } from '../settings/store';
import { emptyTrash, listTrash, restoreFromTrash } from './store';

export const trashHandlers = {
  'trash.list': handler(z.object({ persona: personaId }).strict(), async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return listTrash(ctx.db, persona, (await readSettings(ctx)).trashDays);
  }),

  'trash.restore': handler(z.object({ id: uuid }).strict(), async ({ id }, ctx, call) =>
    restoreFromTrash(ctx, id, { actor: call.actor }, (await readSettings(ctx)).trashDays),
  ),

  // Emptying is for good: only an explicit, confirmed request (the UI asks first) does it.
  'trash.empty': handler(
    z.object({ persona: personaId, confirm: z.literal(true, 'emptying the trash is for good: pass confirm: true once the person has confirmed') }).strict(),
    async ({ persona }, ctx) => {
      await requirePersona(ctx.db, persona);
      return { emptied: await emptyTrash(ctx, persona) };
    },
  ),
};
