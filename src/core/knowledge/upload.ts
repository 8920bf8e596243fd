import { z } from 'zod';
import type { Envelope } from '../../shared/api';
import type { CoreContext } from '../context';
import { toAppError } from '../dispatch';
import { requirePersona } from '../personas/store';
import { personaId } from '../schemas';
import { readSettings } from '../settings/store';
import { enqueueIngest } from './ingest';
import { detectKind } from '../parse/detect';
import { sourceName } from './source-name';
import { removeStaged, type StagedFile, StagingWriter } from './staging';

/** The rest of an upload's arguments (its bytes arrive separately). */
export const uploadArgs = z.object({ persona: personaId, name: z.string().min(1).max(500) }).strict();

/**
 * Queues the ingest of a file already staged in the uploads folder. The staged
 * copy is the core's from here on: removed on any refusal, and by the job.
 */
export async function ingestStaged(
  ctx: CoreContext,
  persona: string,
  rawName: string,
  staged: StagedFile,
): Promise<{ jobId: string; source: string }> {
  try {
    await requirePersona(ctx.db, persona);
    const name = sourceName(rawName);
    detectKind(name, staged.head, staged.bytes);
    const jobId = await enqueueIngest(ctx, { persona, source: name, path: staged.path, name, staged: true });
    ctx.wakeJobs();
    return { jobId, source: name };
  } catch (e) {
    await removeStaged(staged.path);
    throw e;
  }
}

/**
 * What a door that streams uploads (the browser host) needs from the core:
 * the size limit, a staging file to write into, and the ingest of the result.
 * Answers are envelopes, like dispatch's.
 */
export interface UploadSink {
  maxBytes(): Promise<number>;
  open(name: string | null, maxBytes: number): Promise<StagingWriter>;
  ingest(args: unknown, staged: StagedFile): Promise<Envelope<unknown>>;
  /** A failure while receiving (a full disk, a bad body) as the envelope dispatch would give. */
  failure(e: unknown): Envelope<never>;
}

export function uploadSink(ctx: CoreContext): UploadSink {
  const failure = (e: unknown): Envelope<never> => ({ ok: false, error: toAppError(e, 'knowledge.ingest').toJSON() });
  return {
    maxBytes: async () => (await readSettings(ctx)).maxIngestBytes,
    open: (name, maxBytes) => StagingWriter.open(ctx, name, maxBytes),
    async ingest(args, staged) {
      const parsed = uploadArgs.safeParse(args);
      if (!parsed.success) {
        await removeStaged(staged.path);
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
        return { ok: false, error: { code: 'invalid_args', message: `Invalid arguments for knowledge.ingest: ${issues}` } };
      }
      try {
        return { ok: true, data: await ingestStaged(ctx, parsed.data.persona, parsed.data.name, staged) };
      } catch (e) {
        return failure(e);
      }
    },
    failure,
  };
}
