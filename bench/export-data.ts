// The persona bench/export.ts and bench/export-profile.ts move: N memories
// with 512-d vectors (each with its history's first version) and one
// document's chunks, all tagged with the current model.
import { randomUUID } from 'node:crypto';
import { encodeVector } from '../src/core/db/vector';
import { importMemories } from '../src/core/memories/import';
import type { TestCore } from '../src/core/testing/core';

export function vector(seed: number): Float32Array {
  const v = new Float32Array(512);
  let x = seed * 2654435761;
  for (let i = 0; i < 512; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    v[i] = (x / 2 ** 32) * 2 - 1;
  }
  return v;
}

const WORDS = 'train hotel Zürich Kyōto meeting launch budget coffee garden novel chapter invoice market report café doctor'.split(' ');
export const sentence = (i: number) => Array.from({ length: 14 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ') + ` #${i}`;

/** Creates persona "bench" with n memories and a `chunks`-chunk document. */
export async function loadBenchPersona(core: TestCore, n: number, chunks: number): Promise<void> {
  const ctx = core.ctx;
  const model = ctx.embedder.model();
  await core.call('personas.create', { name: 'Bench' });
  for (let i = 0; i < n; i += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, n - i) }, (_, k) => ({
      content: sentence(i + k),
      category: k % 3 ? 'work' : null,
      importance: 1 + ((i + k) % 10),
      day: `2025-${String(1 + ((i + k) % 12)).padStart(2, '0')}-${String(1 + ((i + k) % 28)).padStart(2, '0')}`,
      embedding: vector(i + k),
      embeddingModel: model,
    }));
    await importMemories(ctx, 'bench', rows);
  }
  await ctx.db.transaction(async (tx) => {
    await tx.query(`INSERT INTO knowledge_sources (persona, source, kind, bytes, pages) VALUES ('bench', 'handbook.pdf', 'pdf', 4000000, 100)`);
    for (let c = 0; c < chunks; c++) {
      await tx.query(
        `INSERT INTO knowledge_chunks (id, persona, source, chunk_index, content, page_from, page_to, embedding, embedding_model)
         VALUES ($1, 'bench', 'handbook.pdf', $2, $3, $4, $4, $5, $6)`,
        [randomUUID(), c, Array.from({ length: 40 }, (_, k) => sentence(c * 40 + k)).join('. '), 1 + Math.floor(c / 1.5), encodeVector(vector(1e6 + c)), model],
      );
    }
  });
}
