import { z } from 'zod';
import { personaId, uuid } from './fields';

export const trashArgs = {
  /** What deletes put in the persona's trash, newest first (docs/trash.md). */
  'trash.list': z.object({ persona: personaId }).strict(),
  /** Puts one item back whole: same id, versions, vectors and links. */
  'trash.restore': z.object({ id: uuid }).strict(),
  /** Removes everything in the persona's trash for good; only with `confirm: true` (the UI asks first). */
  'trash.empty': z
    .object({
      persona: personaId,
      confirm: z.literal(true, 'emptying the trash is for good: pass confirm: true once the person has confirmed'),
    })
    .strict(),
};
