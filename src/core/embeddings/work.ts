import { z } from 'zod';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import type { QueueDef } from '../jobs/types';
import { EMBEDDING_TARGETS } from './enqueue';
import { embedByLength } from './length-order';
import { placeStagedVectors } from './staged';
import { loadTargets, markFailed, type TargetRow, writeVectors } from './store';
import { personaPrivacy } from '../personas/store';

const argsSchema = z.object({
  target: z.enum(EMBEDDING_TARGETS),
  ids: z.array(z.string().uuid()).max(10_000),
});

function parseArgs(raw: Record<string, unknown>): z.output<typeof argsSchema> {
  const parsed = argsSchema.safeParse(raw);
  if (!parsed.success) throw new AppError('invalid_args', `embedding job arguments are not valid: ${parsed.error.message}`);
  return parsed.data;
}

/** Tells the UI which rows changed, per persona (memories) or per source (knowledge). */
function announce(ctx: CoreContext, target: 'memory' | 'knowledge', rows: TargetRow[]): void {
  const groups = new Map<string, TargetRow[]>();
  for (const r of rows) {
    const key = target === 'memory' ? r.persona : `${r.persona}\u0000${r.source ?? ''}`;
    const g = groups.get(key) ?? [];
    g.push(r);
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    const first = g[0]!;
    if (target === 'memory') ctx.events.emit('memories.changed', { persona: first.persona, ids: g.map((r) => r.id), reason: 'embedded' });
    else ctx.events.emit('knowledge.changed', { persona: first.persona, source: first.source ?? '' });
  }
}

/**
 * The texts the queue embeds that the domains above this one know how to make
 * (src/core/app/queues.ts passes memories/context-key.ts and
 * knowledge/window-store.ts): a memory's contextual key, and a knowledge
 * chunk's sentence windows with the rule that makes the chunk's vector of theirs.
 */
export interface EmbeddingSources<W extends { chunkId: string; key: string }> {
  memoryKeys: (q: Queryable, ids: string[]) => Promise<Map<string, string>>;
  loadWindows: (q: Queryable, chunkIds: string[]) => Promise<W[]>;
  meanVectors: (owners: string[], vectors: Float32Array[]) => Map<string, Float32Array>;
  writeWindowVectors: (tx: Queryable, windows: W[], vectors: Float32Array[], model: string) => Promise<void>;
}

/**
 * The `embeddings` queue: vectors for the rows a job names. All batches are
 * embedded before anything is written, and written in one transaction, so a
 * failed attempt leaves no partial result behind.
 */
export const embeddingsQueue = <W extends { chunkId: string; key: string }>(sources: EmbeddingSources<W>): QueueDef => ({
  // One at a time: the local model is one thread, and remote servers rate-limit.
  concurrency: 1,
  async work(raw, jc, ctx) {
    const args = parseArgs(raw);
    const loaded = await loadTargets(ctx.db, args.target, args.ids);
    if (loaded.length === 0) return;
    // A job holds one persona's rows (enqueue.ts); a local-only persona's go to no provider off this computer.
    const provider = ctx.embedder.current(await personaPrivacy(ctx.db, loaded[0]!.persona));
    // Vectors an import brought for the current model only need to join their index (staged.ts).
    const { placed, rest: rows } = await placeStagedVectors(ctx.db, args.target, loaded, provider.model, jc.signal);
    if (placed.length) announce(ctx, args.target, placed);
    if (rows.length === 0) return;
    // A chunk's sentence windows are embedded with it, so "embedded" means both; the chunk's own
    // vector is then the mean of its windows' (one short text each instead of 3,000 characters:
    // half the model time). A chunk without windows embeds its key. docs/ranking.md, "Knowledge".
    const windows = args.target === 'knowledge' ? await sources.loadWindows(ctx.db, rows.map((r) => r.id)) : [];
    const windowed = new Set(windows.map((w) => w.chunkId));
    const alone = rows.filter((r) => !windowed.has(r.id));
    // A memory is embedded by its contextual key; its content stays what is shown (docs/ranking.md).
    const keys = args.target === 'memory' ? await sources.memoryKeys(ctx.db, alone.map((r) => r.id)) : null;
    const texts = [...alone.map((r) => keys?.get(r.id) ?? r.content), ...windows.map((w) => w.key)];
    // Grouped by length: a batch is padded to its longest text (length-order.ts).
    const embedded = await embedByLength(
      texts,
      provider.maxBatch,
      (batch) => (jc.signal.throwIfAborted(), provider.embed(batch, { signal: jc.signal })),
      async (done) => {
        if (texts.length > provider.maxBatch) await jc.progress({ stage: 'embedding', done, total: texts.length });
      },
    );
    const windowVectors = embedded.slice(alone.length);
    const own = new Map(alone.map((r, i) => [r.id, embedded[i]!]));
    const means = sources.meanVectors(windows.map((w) => w.chunkId), windowVectors);
    const vectors = rows.map((r) => own.get(r.id) ?? means.get(r.id)!);
    if (ctx.embedder.model() !== provider.model) {
      // Settings switched model mid-job: these vectors would be stale on arrival.
      throw new AppError('provider_error', 'The embedding model changed while this job ran; it runs again with the new one.');
    }
    const written = await ctx.db.transaction(async (tx) => {
      await sources.writeWindowVectors(tx, windows, windowVectors, provider.model);
      return writeVectors(tx, args.target, rows, vectors, provider.model);
    });
    announce(ctx, args.target, written);
  },
  async onDiscard(raw, error, ctx) {
    const args = parseArgs(raw);
    announce(ctx, args.target, await markFailed(ctx.db, args.target, args.ids, error, ctx.embedder.model()));
  },
});
