import { z } from 'zod';
import { avatar, noArgs, personaId, text } from './fields';
import { FILE_NAME_MAX, PATH_MAX, PERSONA_NAME_MAX } from './limits';

const name = text(PERSONA_NAME_MAX);

export const personaArgs = {
  'personas.list': noArgs,
  'personas.create': z.object({ name, avatar: avatar.optional() }),
  'personas.rename': z.object({ id: personaId, name, avatar: avatar.optional() }),
  'personas.delete': z.object({ id: personaId, confirm: z.string().max(200) }),
  /** Privacy settings (docs/privacy.md); the warnings say which model calls the current providers will refuse. */
  'personas.update': z.object({ id: personaId, localOnly: z.boolean().optional(), mcp: z.boolean().optional() }).strict(),
  /**
   * Writes the persona to one `<name>.hearth` file (docs/export.md). The browser host answers with `url`
   * (a one-time download, same Bearer token); the desktop app asks where to save and answers with `path`
   * (null when the user cancelled).
   */
  'personas.export': z.object({ id: personaId }).strict(),
  /** A .hearth file as a new persona: uploaded bytes, or (desktop only) a file the user dropped or picked. */
  'personas.import': z.union([
    z.object({ path: z.string().min(1).max(PATH_MAX) }).strict(),
    z.object({ name: z.string().min(1).max(FILE_NAME_MAX), dataBase64: z.string() }).strict(),
  ]),
  /** Stops the import of the file of this name (the `persona` of its `personas.transfer` events); nothing of it stays. */
  'personas.importCancel': z.object({ name: z.string().min(1).max(FILE_NAME_MAX) }).strict(),
};
