// The review's supersession proposals (docs/history.md): which existing
// memories the model is shown, and which of its proposals are applied.
import type { CoreContext } from '../../context';
import { oneLine, recall, supersedeMemory } from '../stores';
import { MIN_REVIEW_CONFIDENCE, supersessionProposal } from './schema';
import { personaPrivacy } from '../../personas/store';

/** User messages of the slice searched; hits kept per message. */
const MAX_QUERIES = 8;
const HITS_PER_QUERY = 3;

/**
 * The current memories that the slice's user messages most resemble, by
 * recall. New items come from what the user said, so these are the facts a
 * new item is likely to contradict. (One structured call: the new items are
 * not known before it, so their own neighbours cannot be looked up first.)
 */
export async function resemblingMemories(ctx: CoreContext, persona: string, transcript: string): Promise<Map<string, string>> {
  const said = transcript
    .split('\n')
    .filter((l) => l.startsWith('User: '))
    .map((l) => l.slice(6).trim())
    .filter(Boolean)
    .slice(-MAX_QUERIES);
  const found = new Map<string, string>();
  const privacy = await personaPrivacy(ctx.db, persona);
  for (const query of said) {
    let vector: Float32Array | null = null;
    try {
      vector = await ctx.embedder.embedQuery(query, privacy, AbortSignal.timeout(5_000));
    } catch {
      // text-only recall is still useful
    }
    const hits = await recall(ctx, { persona, query, limit: HITS_PER_QUERY, kinds: ['memory'], queryEmbedding: vector });
    for (const h of hits) found.set(h.id, h.content);
  }
  return found;
}

export function renderResembling(found: Map<string, string>): string {
  if (!found.size) return '## Existing memories (by id)\n(none)';
  return ['## Existing memories (by id)', ...[...found].map(([id, content]) => `- ${id}: ${oneLine(content)}`)].join('\n');
}

export interface ProposalOutcome {
  applied: number;
  ignored: string[];
}

/**
 * Applies the confident, well-formed proposals of one new item: only ids the
 * model was shown, each linked with actor review and its reason. Anything else
 * is ignored and the reason logged.
 */
export async function applyProposals(
  ctx: CoreContext,
  scope: { persona: string; conversationId: string; newId: string },
  proposals: unknown[],
  shown: Map<string, string>,
): Promise<ProposalOutcome> {
  const out: ProposalOutcome = { applied: 0, ignored: [] };
  for (const raw of proposals) {
    const p = supersessionProposal.safeParse(raw);
    if (!p.success) {
      const issue = p.error.issues[0];
      out.ignored.push(`malformed proposal (${issue ? `${issue.path.join('.') || 'item'}: ${issue.message}` : 'bad shape'})`);
      continue;
    }
    if (p.data.confidence < MIN_REVIEW_CONFIDENCE) {
      out.ignored.push(`not confident enough to supersede ${p.data.id} (${p.data.confidence})`);
      continue;
    }
    if (!shown.has(p.data.id)) {
      out.ignored.push(`${p.data.id} was not among the memories shown`);
      continue;
    }
    try {
      await supersedeMemory(
        ctx,
        p.data.id,
        scope.newId,
        { actor: 'review', conversationId: scope.conversationId, reason: p.data.reason },
        scope.persona,
      );
      out.applied++;
    } catch (e) {
      out.ignored.push(`could not supersede ${p.data.id}: ${(e as Error).message}`);
    }
  }
  for (const why of out.ignored) console.warn(`[memory_review] supersession ignored for ${scope.persona}: ${why}`);
  return out;
}
