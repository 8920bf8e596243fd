import { z } from 'zod';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { readSettings } from '../settings/store';
import { chunkDocument } from './chunk';
import { keyedChunks } from './keyed-chunks';
import { ingestPath } from './ingest-handlers';
import { MAX_SOURCE_CHARS, sourceName } from './source-name';
import { replaceSource } from './store';
import { resolveInWorkspace } from './workspace';

export const MAX_TOOL_TEXT_CHARS = 2_000_000;

/** The `knowledge_ingest` tool's arguments, as the model sends them. */
export const knowledgeIngestToolArgs = z.union([
  z.object({ path: z.string().min(1).max(4096) }).strict(),
  z
    .object({
      text: z.string().trim().min(1, 'text must not be empty').max(MAX_TOOL_TEXT_CHARS),
      source: z.string().trim().min(1, 'source must not be empty').max(MAX_SOURCE_CHARS),
    })
    .strict(),
]);

export type KnowledgeIngestToolResult =
  | { status: 'queued'; source: string; jobId: string }
  | { status: 'ingested'; source: string; chunks: number };

/**
 * The model's `knowledge_ingest {path}` or `{text, source}`. A path must lie
 * inside the persona's workspace folder (`<workspaceDir>/<persona>`); it is
 * queued like a dropped file. Text is chunked and written at once.
 */
export async function ingestForTool(ctx: CoreContext, persona: string, rawArgs: unknown): Promise<KnowledgeIngestToolResult> {
  const parsed = knowledgeIngestToolArgs.safeParse(rawArgs);
  if (!parsed.success) {
    throw new AppError(
      'invalid_args',
      `knowledge_ingest takes {path} (a file in the workspace folder) or {text, source}: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
  }
  const args = parsed.data;
  if ('path' in args) {
    const { workspaceDir } = await readSettings(ctx);
    const real = await resolveInWorkspace(workspaceDir, persona, args.path);
    return { status: 'queued', ...(await ingestPath(ctx, persona, real)) };
  }
  const source = sourceName(args.source);
  const chunks = chunkDocument([{ text: args.text }]);
  await replaceSource(ctx, { persona, source, kind: 'text', bytes: Buffer.byteLength(args.text), pages: null, chunks: keyedChunks(chunks, source) });
  return { status: 'ingested', source, chunks: chunks.length };
}
