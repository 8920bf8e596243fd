import { describe, expect, it } from 'vitest';
import { meaningStrength, type RecallHit } from '../../../shared/api';
import { CLOSEST_ALONE, CLOSEST_BESIDE, splitHits } from './why';

function hit(id: string, text: number, cosine: number | null): RecallHit {
  return { id, kind: 'memory', content: id, score: { text, cosine, importance: 0.1, recency: 1, final: 0.5 } } as unknown as RecallHit;
}

describe('the search page never says "nothing" while something is close in meaning', () => {
  it('with no word match and no strong cosine, shows the closest by meaning, best first', () => {
    const hits = [hit('tax', 0, 0.18), hit('lyon', 0, 0.21), hit('seats', 0, 0.15), hit('no-vector', 0, null)];
    const s = splitHits(hits);
    expect(s.matches).toEqual([]);
    expect(s.closest.map((h) => h.id)).toEqual(['lyon', 'tax', 'seats']);
    expect(s.weaker.map((h) => h.id)).toEqual(['no-vector']);
  });

  it('beside matches, keeps a few of the fairly close open and the rest folded', () => {
    const hits = [hit('word', 1, 0.1), ...Array.from({ length: 8 }, (_, i) => hit(`c${i}`, 0, 0.3 + i / 100)), hit('far', 0, 0.2)];
    const s = splitHits(hits);
    expect(s.matches.map((h) => h.id)).toEqual(['word']);
    expect(s.closest.map((h) => h.id)).toEqual(['c7', 'c6', 'c5'].slice(0, CLOSEST_BESIDE));
    expect(s.weaker).toHaveLength(9 - CLOSEST_BESIDE);
    expect(splitHits([hit('word', 1, 0.1), hit('far', 0, 0.2)]).closest).toEqual([]);
    expect(splitHits(hits.slice(1)).closest).toHaveLength(CLOSEST_ALONE);
  });

  it('names the strength from the cosine', () => {
    expect([0.6, 0.45, 0.35, 0.3, 0.21, -0.05].map(meaningStrength)).toEqual(['strong', 'strong', 'fair', 'fair', 'weak', 'weak']);
  });
});
