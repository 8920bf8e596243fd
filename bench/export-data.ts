// The persona bench/export.ts and bench/export-profile.ts move: N memories
// with 512-d vectors (each with its history's first version) and one
// document's chunks, all tagged with the current model.
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { encodeVector } from '../src/core/db/vector';
import { importMemories } from '../src/core/memories/import';
import { FORMAT, FORMAT_VERSION } from '../src/core/portable/format';
import { importPersonaFile } from '../src/core/portable/import';
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

/**
 * The same persona built fast, for big sizes (--fast-setup): a .hearth file
 * written here (each memory with its first history version, one document's
 * chunks) and imported through the bulk path. Its vectors stay staged — the
 * file's import queues them to join the HNSW graph, and those jobs are
 * dropped here so they do not run during the figures — which export and
 * import read and write the same way as indexed ones (docs/export.md).
 */
export async function importBenchPersona(core: TestCore, n: number, chunks: number, path: string): Promise<void> {
  const ctx = core.ctx;
  const model = ctx.embedder.model();
  const at = '2025-06-01T10:00:00.000000Z';
  const b64 = (i: number) => Buffer.from(encodeVector(vector(i), 512).subarray(4)).toString('base64');
  const lines: string[] = [
    JSON.stringify({ format: FORMAT, version: FORMAT_VERSION, appVersion: 'bench', exportedAt: at, embeddingModel: model }),
    JSON.stringify({ type: 'persona', id: 'bench', name: 'Bench', createdAt: at }),
  ];
  const ids = Array.from({ length: n }, () => randomUUID());
  const day = (i: number) => `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({
      type: 'memory', id: ids[i], category: i % 3 ? 'work' : null, content: sentence(i), importance: 1 + (i % 10), day: day(i), origin: 'manual',
      conversationId: null, insertedAt: at, updatedAt: at, embedding: b64(i), embeddingModel: model, embeddingError: null, supersededBy: null, supersededAt: null,
    }));
  }
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({
      type: 'memoryVersion', memoryId: ids[i], version: 1, change: 'create', content: sentence(i), category: i % 3 ? 'work' : null,
      importance: 1 + (i % 10), day: day(i), supersededBy: null, actor: 'user', conversationId: null, reason: null, validFrom: at, validTo: null,
    }));
  }
  lines.push(JSON.stringify({ type: 'knowledgeSource', source: 'handbook.pdf', kind: 'pdf', bytes: 4_000_000, pages: 100, ingestedAt: at }));
  for (let c = 0; c < chunks; c++) {
    lines.push(JSON.stringify({
      type: 'knowledgeChunk', id: randomUUID(), source: 'handbook.pdf', chunkIndex: c, content: Array.from({ length: 40 }, (_, k) => sentence(c * 40 + k)).join('. '),
      pageFrom: 1 + Math.floor(c / 1.5), pageTo: 1 + Math.floor(c / 1.5), embedding: b64(1e6 + c), embeddingModel: model, embeddingError: null, insertedAt: at,
    }));
  }
  const counts = { persona: 1, memory: n, memoryVersion: n, ...(chunks ? { knowledgeSource: 1, knowledgeChunk: chunks } : {}) };
  lines.push(JSON.stringify({ type: 'end', counts }));
  writeFileSync(path, gzipSync(lines.join('\n') + '\n', { level: 1 }));
  const res = await importPersonaFile(ctx, path).finally(() => rmSync(path, { force: true }));
  if (res.persona.id !== 'bench') throw new Error(`the bench persona came in as ${res.persona.id}`);
  await ctx.db.query(`DELETE FROM jobs WHERE persona = 'bench' AND queue = 'embeddings'`);
}
