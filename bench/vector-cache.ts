// Bench-only: a provider's vectors answered from the retrieval bench's disk cache
// (retrieval/vector-cache.ts, keyed by model + exact text), so a bench that re-ingests
// the same documents after a ranking change gives the model only the texts it has not
// seen. Never used by the app; the cache lives wherever the bench is told (a temp or
// git-ignored folder, not the repo).
import type { EmbeddingProvider } from '../src/core/providers/embeddings/types';
import { VectorCache } from './retrieval/vector-cache';

export interface CachedProvider {
  hits(): number;
  misses(): number;
  save(): void;
}

/** Wraps `provider.embed` in place: cached texts are answered from disk, the rest go to the model. */
export function cacheVectors(provider: EmbeddingProvider, dir: string): CachedProvider {
  const cache = new VectorCache(dir, provider.model, provider.dimensions);
  let hits = 0;
  let misses = 0;
  const embed = provider.embed.bind(provider);
  (provider as { embed: EmbeddingProvider['embed'] }).embed = async (texts, options) => {
    const out = texts.map((t) => cache.get(t));
    const todo = texts.flatMap((_, i) => (out[i] ? [] : [i]));
    hits += texts.length - todo.length;
    misses += todo.length;
    if (todo.length) {
      const fresh = await embed(todo.map((i) => texts[i]!), options);
      todo.forEach((i, j) => {
        out[i] = fresh[j]!;
        cache.set(texts[i]!, fresh[j]!);
      });
    }
    return out as Float32Array[];
  };
  return { hits: () => hits, misses: () => misses, save: () => cache.save() };
}
