import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeVector } from '../db/vector';
import { recall } from '../recall/recall';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { fakeVector } from '../testing/fake-openai/embeddings';
import { skipWithoutVectors } from '../testing/server';
import { waitForJobs } from '../testing/wait-jobs';
import { chunkDocument } from './chunk';
import { keyedChunks } from './keyed-chunks';
import { replaceSource } from './store';
import { writeWindowVectors } from './window-store';

// Every sentence names its own animal and town: a search for one finds its window alone.
const ANIMALS = ['otter', 'heron', 'badger', 'marten', 'plover', 'stoat', 'curlew', 'vole', 'lynx', 'ibex', 'gannet', 'dormouse'];
const sentence = (i: number) =>
  `Ledger entry ${i} records that a ${ANIMALS[i % ANIMALS.length]} was sighted near town${i} by warden${i}, ` +
  `who walked the long coastal path past the harbour wall, the old mill, the chapel and the salt marshes before writing it down at dusk.`;
const SENTENCES = 260;

let fx: EmbedFixture;
beforeAll(async () => {
  fx = await makeEmbedFixture({}, 64);
  const text = Array.from({ length: SENTENCES }, (_, i) => sentence(i)).join(' ');
  await replaceSource(fx.core.ctx, { persona: 'main', source: 'wardens.md', chunks: keyedChunks(chunkDocument([{ text }]), 'wardens.md') });
  await waitForJobs(fx.core, 'embeddings', 120_000);
}, 180_000);
afterAll(async () => {
  await fx?.dispose();
});

async function windows() {
  const { rows } = await fx.core.ctx.db.query<{ chunk_id: string; window_index: number; search_key: string; v: Uint8Array | null; model: string | null }>(
    `SELECT chunk_id, window_index, search_key, vector_send(embedding) AS v, embedding_model AS model FROM knowledge_windows ORDER BY chunk_id, window_index`,
  );
  return rows;
}

describe("a document's sentence windows", () => {
  it('are every one embedded with its own text, and each is found by its own sentence', async (t) => {
    skipWithoutVectors(t, fx.core.ctx.db);
    const rows = await windows();
    // One window per sentence (each is too long to share one), so well over one write statement's worth.
    expect(rows.length).toBeGreaterThanOrEqual(SENTENCES);
    for (const r of rows) {
      expect(r.model).toBe(fx.core.ctx.embedder.model());
      const stored = decodeVector(r.v!).slice(0, 64);
      const own = fakeVector(r.search_key, 64);
      expect(stored.reduce((s, x, i) => s + x * own[i]!, 0)).toBeCloseTo(1, 4);
    }
    for (const i of [0, 137, SENTENCES - 1]) {
      const hits = await recall(fx.core.ctx, { persona: 'main', query: `a ${ANIMALS[i % ANIMALS.length]} near town${i} by warden${i}`, kinds: ['knowledge'], limit: 3 });
      const top = hits[0]!;
      expect(top.content.slice(top.match!.start, top.match!.end)).toContain(`Ledger entry ${i} records`);
    }
  });

  it('written in one go beyond a statement’s page all get their vectors, and a window whose text changed keeps none', async (t) => {
    skipWithoutVectors(t, fx.core.ctx.db);
    const rows = await windows();
    const targets = rows.map((r) => ({ chunkId: r.chunk_id, index: r.window_index, key: r.search_key }));
    // The last window's text changed after its job read it: its vector would be stale.
    targets[targets.length - 1] = { ...targets.at(-1)!, key: 'a text this window no longer has' };
    const vectors = targets.map((_, i) => fakeVector(`fresh vector ${i}`, 64));
    await fx.core.ctx.db.transaction((tx) => writeWindowVectors(tx, targets, vectors, 'test:other-model'));
    const after = await windows();
    expect(after.filter((r) => r.model === 'test:other-model')).toHaveLength(rows.length - 1);
    after.slice(0, -1).forEach((r, i) => {
      const stored = decodeVector(r.v!).slice(0, 64);
      expect(stored.reduce((s, x, k) => s + x * vectors[i]![k]!, 0)).toBeCloseTo(1, 4);
    });
    expect(after.at(-1)!.model).toBe(fx.core.ctx.embedder.model());
  });
});
