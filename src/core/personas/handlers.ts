import { z } from 'zod';
import { handler } from '../method';
import { noArgs, personaId, text } from '../schemas';
import { deletePersona } from './delete';
import { createPersona, getPersona, listPersonas, renamePersona } from './store';

const name = text(64);

export const personaHandlers = {
  'personas.list': handler(noArgs, (_args, ctx) => listPersonas(ctx.db)),

  'personas.create': handler(z.object({ name }), async ({ name }, ctx) => {
    const persona = await createPersona(ctx.db, name);
    ctx.events.emit('personas.changed', { persona: persona.id });
    return persona;
  }),

  'personas.rename': handler(z.object({ id: personaId, name }), async ({ id, name }, ctx) => {
    const persona = await renamePersona(ctx.db, id, name);
    ctx.events.emit('personas.changed', { persona: persona.id });
    return persona;
  }),

  'personas.delete': handler(z.object({ id: personaId, confirm: z.string().max(200) }), async ({ id, confirm }, ctx) => {
    // A deletion the user confirmed is backed up first; a wrong confirmation is refused before any backup.
    const persona = await getPersona(ctx.db, id);
    if (confirm === persona.name) await ctx.backups?.create('before-persona-delete');
    const deleted = await deletePersona(ctx.db, id, confirm);
    ctx.events.emit('personas.changed', { persona: id });
    return { deleted };
  }),
};
