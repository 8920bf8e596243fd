import { z } from 'zod';
import { personaId } from './fields';
import { FILE_NAME_MAX, PATH_MAX, SOURCE_MAX } from './limits';

const folder = z.string().min(1).max(PATH_MAX);

export const knowledgeArgs = {
  'knowledge.ingest': z.union([
    z.object({ persona: personaId, path: z.string().min(1).max(PATH_MAX) }).strict(),
    z.object({ persona: personaId, name: z.string().min(1).max(FILE_NAME_MAX), dataBase64: z.string() }).strict(),
  ]),
  'knowledge.listSources': z.object({ persona: personaId }).strict(),
  'knowledge.deleteSource': z.object({ persona: personaId, source: z.string().min(1).max(SOURCE_MAX) }).strict(),
  /** Keeps a folder's documents ingested (docs/watched-folders.md); `folder` is an absolute path the door allows. */
  'knowledge.watch': z.object({ persona: personaId, folder }).strict(),
  /** Stops watching; what was ingested stays. */
  'knowledge.unwatch': z.object({ persona: personaId, folder }).strict(),
  /** `allowedDirs`: the folders the browser host may watch inside (null: the desktop app's folder picker decides). */
  'knowledge.watches': z.object({ persona: personaId }).strict(),
};
