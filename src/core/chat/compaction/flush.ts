import { z } from 'zod';
import type { CoreContext } from '../../context';
import type { ChatProvider } from '../../providers/llm/types';
import { CATEGORY_MAX } from '../../../shared/contract/limits';
import { importance } from '../../schemas';
import { parseModelJson } from '../../providers/llm/model-json';
import { writeMemory } from '../stores';

const FLUSH_INSTRUCTIONS = `The conversation excerpt below is about to be condensed into a short summary, and details will be lost.
Extract the events worth remembering long-term: occurrences, project milestones, decisions, specific conversations worth recalling — each self-contained, with its date when known.
Answer ONLY with a JSON array (possibly empty) of objects {"category": string, "content": string, "importance": 1-10}. No prose.`;

const flushItem = z.object({
  category: z.string().trim().min(1).max(CATEGORY_MAX),
  content: z.string().trim().min(1).max(4_000),
  importance,
});
const flushOutput = z.union([z.array(flushItem).max(30), z.object({ memories: z.array(flushItem).max(30) }).transform((o) => o.memories)]);

export interface FlushResult {
  written: string[];
  /** Why nothing (or not everything) was written; null when all went well. */
  problem: string | null;
}

/**
 * The pre-compaction flush (trigger 3): one call on exactly the slice about
 * to fold. Never throws — a failed or malformed flush must not block the fold.
 */
export async function flushSlice(
  ctx: CoreContext,
  provider: ChatProvider,
  scope: { persona: string; conversationId: string },
  slice: string,
  signal: AbortSignal,
): Promise<FlushResult> {
  let content: string;
  try {
    const res = await provider.chat(
      [
        { role: 'system', content: FLUSH_INSTRUCTIONS },
        { role: 'user', content: slice },
      ],
      [],
      { signal },
    );
    content = res.content;
  } catch (e) {
    return { written: [], problem: `flush call failed: ${(e as Error).message}` };
  }
  const json = parseModelJson(content);
  const parsed = json.ok ? flushOutput.safeParse(json.value) : null;
  if (!parsed?.success) {
    return { written: [], problem: `malformed flush output: ${!json.ok ? json.error : (parsed?.error.issues[0]?.message ?? '?')}` };
  }
  const written: string[] = [];
  for (const item of parsed.data) {
    const { memory: m, duplicateOf } = await writeMemory(ctx, { ...scope, ...item, origin: 'flush' });
    if (!duplicateOf) written.push(m.id);
  }
  return { written, problem: null };
}
