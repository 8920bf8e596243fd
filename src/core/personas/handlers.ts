import { personaArgs } from '../../shared/contract/personas';
import { confirmsName } from '../../shared/avatar';
import { AppError, type ErrorCode, isAppError } from '../../shared/errors';
import type { Backups } from '../context';
import { handler } from '../method';
import { deletePersona } from './delete';
import { createPersona, getPersona, listPersonas, renamePersona } from './store';

/**
 * The backup that makes a deletion undoable by hand. If it fails or does not verify, nothing is deleted
 * and the message says so (a full disk keeps its own code: the person can act on it).
 */
async function backUpFirst(backups: Backups, personaName: string): Promise<void> {
  const refused = (why: string, code: ErrorCode = 'internal') =>
    new AppError(code, `Could not back up before deleting “${personaName}”, so nothing was deleted: ${why}`);
  let made;
  try {
    made = await backups.create('before-persona-delete');
  } catch (e) {
    throw refused(e instanceof Error ? e.message : String(e), isAppError(e) ? e.code : 'internal');
  }
  if (!made.verified) throw refused('the backup did not verify (Settings → Data → Check integrity says more).');
}

export const personaHandlers = {
  'personas.list': handler(personaArgs['personas.list'], (_args, ctx) => listPersonas(ctx.db)),

  'personas.create': handler(personaArgs['personas.create'], async ({ name, avatar }, ctx) => {
    const persona = await createPersona(ctx.db, name, avatar ?? null);
    ctx.events.emit('personas.changed', { persona: persona.id });
    return persona;
  }),

  'personas.rename': handler(personaArgs['personas.rename'], async ({ id, name, avatar }, ctx) => {
    const persona = await renamePersona(ctx.db, id, name, avatar);
    ctx.events.emit('personas.changed', { persona: persona.id });
    return persona;
  }),

  'personas.delete': handler(personaArgs['personas.delete'], async ({ id, confirm }, ctx) => {
    // A deletion the user confirmed is backed up first; a wrong confirmation is refused before any backup.
    const persona = await getPersona(ctx.db, id);
    if (confirmsName(persona.name, confirm) && ctx.backups) {
      // The dialog says which step it is on: the backup alone takes seconds.
      ctx.events.emit('personas.deleting', { persona: id, stage: 'backup' });
      await backUpFirst(ctx.backups, persona.name);
    }
    ctx.events.emit('personas.deleting', { persona: id, stage: 'delete' });
    const deleted = await deletePersona(ctx.db, id, confirm);
    ctx.events.emit('personas.changed', { persona: id });
    return { deleted };
  }),
};
