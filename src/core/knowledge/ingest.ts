import { existsSync } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { plural } from '../../shared/plural';
import type { CoreContext } from '../context';
import { enqueueJob } from '../jobs/enqueue';
import { isPermanent } from '../jobs/runner';
import type { JobContext, JobWork, QueueDef } from '../jobs/types';
import { readSettings } from '../settings/store';
import { chunkDocument } from './chunk';
import { keyedChunks } from './keyed-chunks';
import { parseError } from '../parse/errors';
import { inspectFile } from '../parse/inspect';
import { progressReporter } from './progress';
import { removeStaged } from './staging';
import { replaceSource } from './store';

/** An ingest job's arguments: a file on disk (the user's own, or a staged upload we delete afterwards). */
export const ingestJobArgs = z.object({
  persona: z.string(),
  source: z.string(),
  path: z.string(),
  /** The file name, for type detection and messages. */
  name: z.string(),
  staged: z.boolean(),
});
export type IngestJobArgs = z.output<typeof ingestJobArgs>;

export async function enqueueIngest(ctx: CoreContext, args: IngestJobArgs): Promise<string> {
  return enqueueJob(ctx.db, { queue: 'ingest', persona: args.persona, args });
}

/**
 * parse (the core's parse worker) → chunk → replace the source's chunks in one transaction,
 * which also enqueues their embedding jobs. Any failure before the write
 * leaves the previous version of the source as it was.
 */
async function ingest(args: IngestJobArgs, jc: JobContext, ctx: CoreContext): Promise<void> {
  const report = progressReporter(ctx, jc, args.persona, args.source);
  const { maxIngestBytes } = await readSettings(ctx);
  if (args.staged && !existsSync(args.path)) {
    // A discarded upload job's copy is removed; retrying it cannot bring the bytes back.
    throw new AppError('not_found', `The uploaded copy of "${args.name}" is gone; drop the file again.`, { retryable: false });
  }
  const facts = await inspectFile(args.path, args.name, maxIngestBytes);
  await report.stage({ stage: 'parsing', done: 0, total: 0, label: 'parsing' });
  const doc = await ctx.parser.parse(args.path, {
    kind: facts.kind,
    name: args.name,
    signal: jc.signal,
    onProgress: (page, pages) => report.page(page, pages),
  });
  await report.flush();
  const chunks = chunkDocument(doc.segments);
  if (chunks.length === 0) throw parseError('empty', `"${args.name}" holds no text to ingest.`);
  // Each chunk is searched by its contextual key; its sentence windows are embedded with it (docs/ranking.md).
  const keyed = keyedChunks(chunks, args.name, { pdf: doc.kind === 'pdf' });
  jc.signal.throwIfAborted();
  await report.stage({ stage: 'writing', done: 0, total: chunks.length, label: `writing ${plural(chunks.length, 'chunk')}` });
  await replaceSource(ctx, {
    persona: args.persona,
    source: args.source,
    kind: doc.kind,
    bytes: facts.bytes,
    pages: doc.pages,
    chunks: keyed,
  });
  await report.stage({ stage: 'embedding', done: 0, total: chunks.length, label: `${plural(chunks.length, 'chunk')} written` });
}

export const ingestWork: JobWork = async (raw, jc, ctx) => {
  const parsed = ingestJobArgs.safeParse(raw);
  if (!parsed.success) throw new AppError('invalid_args', `Malformed ingest job: ${parsed.error.message}`, { retryable: false });
  const args = parsed.data;
  try {
    await ingest(args, jc, ctx);
  } catch (e) {
    // No attempt will follow: the upload copy goes now, before the job is marked discarded.
    // (A shutdown aborts the attempt without counting it: the copy stays for the next start.)
    const final = isPermanent(e) || jc.job.attempt >= jc.job.maxAttempts;
    if (args.staged && final && !jc.signal.aborted) await removeStaged(args.path);
    throw e;
  }
  if (args.staged) await removeStaged(args.path);
};

export const ingestQueue: QueueDef = {
  work: ingestWork,
  // Parsing is CPU-bound and the machine may have two cores: one file at a time,
  // the rest wait in line (chat and browsing stay responsive meanwhile).
  concurrency: 1,
  // The last attempt failed (or the file can never be read): the upload copy goes.
  onDiscard: async (raw) => {
    const args = ingestJobArgs.safeParse(raw);
    if (args.success && args.data.staged) await removeStaged(args.data.path);
  },
  // An upload whose copy is gone (removed when the job was discarded) can only fail again.
  retryRefusal: async (raw) => {
    const args = ingestJobArgs.safeParse(raw);
    if (!args.success || !args.data.staged || existsSync(args.data.path)) return null;
    return `The file “${args.data.name}” is no longer there (its uploaded copy went when the job gave up), so retrying cannot work: drop it again in Knowledge.`;
  },
};
