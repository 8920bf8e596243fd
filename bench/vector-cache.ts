// Bench-only: a provider's vectors kept on disk, keyed by model + exact text, so a bench that re-ingests
// the same documents after a ranking change gives the model only the texts it has not seen. Never used
// by the app; the cache lives wherever the bench is told (a temp or git-ignored folder, not the repo).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddingProvider } from '../src/core/providers/embeddings/types';

export interface VectorCache {
  hits(): number;
  misses(): number;
  save(): void;
}

/** Wraps `provider.embed` in place: cached texts are answered from disk, the rest go to the model. */
export function cacheVectors(provider: EmbeddingProvider, dir: string): VectorCache {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${provider.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`);
  const stored: Record<string, string> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const key = (t: string) => createHash('sha256').update(provider.model).update('\0').update(t).digest('base64url');
  const decode = (b: string) => new Float32Array(new Uint8Array(Buffer.from(b, 'base64')).buffer);
  let hits = 0;
  let misses = 0;
  let dirty = false;
  const embed = provider.embed.bind(provider);
  (provider as { embed: EmbeddingProvider['embed'] }).embed = async (texts, options) => {
    const out: (Float32Array | undefined)[] = texts.map((t) => (stored[key(t)] ? decode(stored[key(t)]!) : undefined));
    const todo = texts.flatMap((t, i) => (out[i] ? [] : [i]));
    hits += texts.length - todo.length;
    misses += todo.length;
    if (todo.length) {
      const fresh = await embed(todo.map((i) => texts[i]!), options);
      todo.forEach((i, j) => {
        out[i] = fresh[j]!;
        stored[key(texts[i]!)] = Buffer.from(fresh[j]!.buffer, fresh[j]!.byteOffset, fresh[j]!.byteLength).toString('base64');
      });
      dirty = true;
    }
    return out as Float32Array[];
  };
  return {
    hits: () => hits,
    misses: () => misses,
    save: () => {
      if (dirty) writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
    },
  };
}
