import { z } from 'zod';
import { confidence, dimension, personaId, text } from './fields';
import { USER_MODEL_CONTENT_MAX } from './limits';

const version = z.number().int().min(1);

export const userModelArgs = {
  'userModel.list': z.object({ persona: personaId }).strict(),
  'userModel.upsert': z
    .object({ persona: personaId, dimension, content: text(USER_MODEL_CONTENT_MAX), confidence: confidence.default(5) })
    .strict(),
  /** `trashId`: what `trash.restore` takes to undo it (docs/trash.md). */
  'userModel.delete': z.object({ persona: personaId, dimension }).strict(),
  'userModel.block': z.object({ persona: personaId }).strict(),
  /** Every version of one dimension, oldest first, deletions included. */
  'userModel.history': z.object({ persona: personaId, dimension }).strict(),
  'userModel.restoreVersion': z.object({ persona: personaId, dimension, version }).strict(),
};
