// Multi-hop recall: a second, text-only round seeded by the first round's
// best memories. A question that needs two facts ("what did Ana's brother
// study?") often finds the first ("Ana's brother is Tom") but shares no word
// with the second ("Tom studied geology"). The first round's top hits lend
// their most distinctive words (highest IDF, not already asked) as a new text
// query; what it finds competes at `hopShare` of its own score. Off unless
// the tuning turns it on (docs/ranking.md, "Second round").
import type { Queryable } from '../db/client';
import { quoteLexeme, type TextQuery, prepareTextQuery } from './text-query';

/**
 * The words a second round searches for: the lexemes of `seeds` the question
 * does not already hold, rarest first (their IDF among all memories), at most
 * `max`. Null when nothing new is left.
 */
export async function expansionQuery(q: Queryable, asked: TextQuery, seeds: string[], max: number): Promise<TextQuery | null> {
  if (!seeds.length || max <= 0) return null;
  const seen = await prepareTextQuery(q, seeds.join('\n'), asked.variant, asked.index);
  const have = new Set(asked.lexemes);
  const idf = seen.idf.memories;
  const chosen = seen.lexemes
    .filter((l) => !have.has(l) && (idf.get(l) ?? 0) > 0 && /\p{L}/u.test(l))
    .sort((a, b) => idf.get(b)! - idf.get(a)! || (a < b ? -1 : 1))
    .slice(0, max);
  if (!chosen.length) return null;
  const keep = <V>(m: ReadonlyMap<string, V>) => new Map(chosen.filter((l) => m.has(l)).map((l) => [l, m.get(l)!]));
  return {
    variant: asked.variant,
    scorer: asked.scorer,
    index: asked.index,
    // The BM25 index tokenises this itself: stems read as words again (stemming them twice rarely changes them).
    text: chosen.join(' '),
    orQuery: chosen.map(quoteLexeme).join(' | '),
    lexemes: chosen,
    repeats: chosen.map(() => 1),
    idf: { memories: keep(seen.idf.memories), knowledge: keep(seen.idf.knowledge) },
  };
}
