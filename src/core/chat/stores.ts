// The chat's doors into the other stores (memories, user model, recall,
// knowledge, settings). One file, so the agent loop and the jobs depend on
// these few functions rather than on each store's internals.
import type { Memory, MemoryOrigin, RecallHit, UserModelEntry } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { deleteMemory, writeMemory as writeMemoryRow } from '../memories/mutate';
import { recall } from '../recall/recall';
import { writeUserModel } from '../user-model/write';

export { ingestForTool } from '../knowledge/tool';
export { renderTopMemoriesBlock, topMemories } from '../memories/top';
export { renderUserModelBlock } from '../user-model/block';
export { listUserModel } from '../user-model/store';

export interface MemoryDraft {
  persona: string;
  content: string;
  category: string | null;
  importance: number;
  origin: MemoryOrigin;
  conversationId: string | null;
}

export function writeMemory(ctx: CoreContext, d: MemoryDraft): Promise<Memory> {
  return writeMemoryRow(ctx, d);
}

/** Deletes one memory of this persona only; false when it is not one of the persona's. */
export async function deleteMemoryOfPersona(ctx: CoreContext, persona: string, id: string): Promise<boolean> {
  try {
    await deleteMemory(ctx, id, persona);
    return true;
  } catch (e) {
    if (e instanceof AppError && e.code === 'not_found') return false;
    throw e;
  }
}

export function upsertUserModel(
  ctx: CoreContext,
  persona: string,
  dimension: string,
  content: string,
  confidence: number,
): Promise<UserModelEntry> {
  return writeUserModel(ctx, persona, { dimension, content, confidence });
}

/** A tool call must not wait long on the embedding provider: past this, recall ranks by text. */
const QUERY_EMBED_TIMEOUT_MS = 3_000;

function hitLine(h: RecallHit): string {
  return `${h.tag} ${h.content.replace(/\s*[\r\n]+\s*/g, ' ')}`;
}

/** `recall` for the model: the tagged hits as text, best first. */
export async function recallAsText(
  ctx: CoreContext,
  persona: string,
  args: { query: string; limit: number; date?: string },
): Promise<string> {
  const hits = await recall(ctx, { persona, ...args, embedSignal: AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS) });
  if (hits.length === 0) return `No memories or knowledge match "${args.query}".`;
  return hits.map(hitLine).join('\n');
}
