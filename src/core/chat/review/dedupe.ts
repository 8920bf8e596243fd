import type { CoreContext } from '../../context';
import { encodeVector } from '../../db/vector';

/** Near-duplicate test for texts: case, punctuation and spacing do not count. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Cosine similarity above which two memories say the same thing. */
export const DUPLICATE_COSINE = 0.92;

/**
 * Whether a candidate memory repeats one the persona already has: by
 * normalised text against `known`, or by meaning when the current embedder
 * can embed it (rows embedded by another model are not compared).
 */
export async function isDuplicateMemory(ctx: CoreContext, persona: string, content: string, known: Set<string>): Promise<boolean> {
  if (known.has(normalise(content))) return true;
  const vec = await ctx.embedder.embedQuery(content);
  if (!vec) return false;
  const { rows } = await ctx.db.query<{ sim: number | null }>(
    `SELECT max(1 - (embedding <=> $2::vector)) AS sim FROM memories
     WHERE persona = $1 AND embedding IS NOT NULL AND embedding_model = $3`,
    [persona, encodeVector(vec), ctx.embedder.model()],
  );
  return (rows[0]?.sim ?? 0) >= DUPLICATE_COSINE;
}
