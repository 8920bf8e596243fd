import { z } from 'zod';
import type { Envelope } from '../../shared/api';
import type { CoreContext } from '../context';
import { toAppError } from '../dispatch';
import type { UploadSink } from '../knowledge/upload';
import { removeStaged, StagingWriter } from '../knowledge/staging';
import { importStagedFile } from './handlers';

import { MAX_IMPORT_BYTES } from './limits';

export { MAX_IMPORT_BYTES };

const importArgs = z.object({ name: z.string().min(1).max(500) }).strict();

/** personas.import for a door that streams the upload to disk first (the browser host). */
export function importSink(ctx: CoreContext): UploadSink {
  const failure = (e: unknown): Envelope<never> => ({ ok: false, error: toAppError(e, 'personas.import').toJSON() });
  return {
    maxBytes: async () => MAX_IMPORT_BYTES,
    open: (name, maxBytes) => StagingWriter.open(ctx, name, maxBytes),
    async ingest(args, staged) {
      try {
        const parsed = importArgs.safeParse(args);
        if (!parsed.success) {
          return { ok: false, error: { code: 'invalid_args', message: 'personas.import over HTTP takes {name, dataBase64}: the file’s name and contents.' } };
        }
        const result = await importStagedFile(ctx, staged.path, parsed.data.name);
        ctx.events.emit('personas.changed', { persona: result.persona.id });
        return { ok: true, data: result };
      } catch (e) {
        return failure(e);
      } finally {
        await removeStaged(staged.path);
      }
    },
    failure,
  };
}
