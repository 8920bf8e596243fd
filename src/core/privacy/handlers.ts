import { personaArgs } from '../../shared/contract/personas';
import { handler } from '../method';
import { updatePersonaPrivacy } from '../personas/store';
import { localOnlyWarnings } from './warnings';

export const privacyHandlers = {
  /** Local only and MCP access per persona (docs/privacy.md); the answer says what the current providers stop. */
  'personas.update': handler(
    personaArgs['personas.update'],
    async ({ id, localOnly, mcp }, ctx) => {
      const persona = await updatePersonaPrivacy(ctx.db, id, { ...(localOnly !== undefined ? { localOnly } : {}), ...(mcp !== undefined ? { mcp } : {}) });
      ctx.events.emit('personas.changed', { persona: id });
      return { persona, warnings: persona.localOnly ? await localOnlyWarnings(ctx, persona.name) : [] };
    },
  ),
};
