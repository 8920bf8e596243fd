// Ingest latency: `npm run bench:ingest -- --pages 100 [--no-embed] [--json FILE] [--model-threads N] [--drop-after S]`
// Generates two different text PDFs and drops them into a fresh core (real
// PGlite, the built-in local embedder), one after the other, and prints: time
// until each is searchable by text (ingest job done and recall finds a
// sentence) — the first ingest after start starts the parse worker (cold), the
// second reuses it (warm) — how long a recall through the API (which embeds its
// query) takes while the first document's chunks are embedding, time until
// every chunk of the first has a current-model vector, parsing pages/s, how
// long the core thread is ever blocked meanwhile, and the process's peak RSS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { loadavg, tmpdir } from 'node:os';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Core, startHearth } from '../src/core/index';
import { watchIngests } from './ingest-watch';
import { DocumentParser } from '../src/core/parse/parser';
import { knownSentence, makeBookPdf } from '../src/core/testing/test-pdfs';
import { recall } from '../src/core/recall/recall';
import { loopGapMonitor, type LoopGap } from './floor';
import { percentile } from './latency-stats';
import { sharedModelPool } from '../src/core/providers/embeddings/local-pool';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '100' },
    'no-embed': { type: 'boolean', default: false },
    'embed-timeout': { type: 'string', default: '900' },
    recalls: { type: 'string', default: '20' },
    json: { type: 'string' },
    /** The built-in model's threads (default: one per core, at most two): 1 and 2 side by side on one machine. */
    'model-threads': { type: 'string' },
    /** Seconds between the app's start and the first file dropped (a person opens the app, then drops a file). */
    'drop-after': { type: 'string', default: '6' },
  },
});
const pages = Number(values.pages);
if (!Number.isInteger(pages) || pages < 1) throw new Error('--pages takes a whole number ≥ 1');
const recalls = Number(values.recalls);
if (values['model-threads']) {
  // The pool sizes itself from os.availableParallelism() when first made (local-pool.ts): this machine is told otherwise.
  const n = Number(values['model-threads']);
  if (!Number.isInteger(n) || n < 1) throw new Error('--model-threads takes a whole number ≥ 1');
  os.availableParallelism = () => n;
  syncBuiltinESMExports();
}

// The model thread's work, counted where the core hands it over: messages, texts, and the time at
// least one message was in the thread (its busy time, whatever the machine's load).
const modelWork = { messages: 0, texts: 0, busyMs: 0, inThread: 0, since: 0, sizes: new Map<number, number>() };
/** Busy time so far, the interval still open included. */
const busyNow = () => modelWork.busyMs + (modelWork.inThread > 0 ? performance.now() - modelWork.since : 0);
{
  const thread = sharedModelPool();
  const run = thread.run.bind(thread);
  thread.run = ((texts: string[], ...rest: unknown[]) => {
    modelWork.messages++;
    modelWork.texts += texts.length;
    modelWork.sizes.set(texts.length, (modelWork.sizes.get(texts.length) ?? 0) + 1);
    if (modelWork.inThread++ === 0) modelWork.since = performance.now();
    const end = () => {
      if (--modelWork.inThread === 0) modelWork.busyMs += performance.now() - modelWork.since;
    };
    const p = (run as (...a: unknown[]) => ReturnType<typeof run>)(texts, ...rest);
    p.then(end, end);
    return p;
  }) as typeof thread.run;
}



const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const sec = (ms: number) => Number((ms / 1000).toFixed(2));
const result: Record<string, unknown> = { pages };

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

interface Ingested {
  source: string;
  jobMs: number;
  searchableMs: number;
  found: boolean;
  gap: LoopGap;
  start: number;
}

/** Drops a file into the core; measures until a text-only recall finds a sentence of it. */
async function ingestUntilSearchable(core: Core, file: string, firstPage: number): Promise<Ingested> {
  const watch = watchIngests(core);
  // How long the core thread (the one serving the UI) is ever blocked while the file goes in.
  const loop = loopGapMonitor();
  const start = performance.now();
  const { source, jobId } = await core.call('knowledge.ingest', { persona: 'main', path: file });
  const job = (await watch.settled([jobId]))[0]!;
  const gap = loop.stop();
  watch.stop();
  if (job.state !== 'completed') throw new Error(`ingest failed: ${job.lastError}`);
  const jobMs = performance.now() - start;
  const sentence = knownSentence(firstPage - 1 + Math.max(1, Math.round(pages * 0.7)), 2);
  // Text search needs no query vector: a text-only recall right after the job says whether the text is in.
  const hits = await recall(core.ctx, { persona: 'main', query: sentence, kinds: ['knowledge'], limit: 3, queryEmbedding: null });
  const searchableMs = performance.now() - start;
  const found = hits.some((h) => h.content.replace(/\s+/g, ' ').includes(sentence));
  return { source, jobMs, searchableMs, found, gap, start };
}

function report(label: string, r: Ingested) {
  console.log(
    `${label}: text-searchable ${s(r.searchableMs)} (job ${s(r.jobMs)}; sentence ${r.found ? 'found' : 'NOT FOUND'}); ` +
      `core thread: largest event-loop gap ${r.gap.maxGapMs} ms (delay p99 ${r.gap.delayP99Ms} ms)`,
  );
  return { textSearchableS: sec(r.searchableMs), ingestJobS: sec(r.jobMs), found: r.found, coreThreadDuringIngest: r.gap };
}

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-ingest-'));
try {
  const fileA = join(dir, `book-${pages}p.pdf`);
  const fileB = join(dir, `second-book-${pages}p.pdf`);
  const pdf = await makeBookPdf(pages);
  writeFileSync(fileA, pdf);
  writeFileSync(fileB, await makeBookPdf(pages, 6, 1001));
  console.log(`PDFs: 2 × ${pages} pages, ${(pdf.length / 1024).toFixed(0)} KB each`);

  // 1. Parsing alone, in a fresh worker: boot (thread + pdfjs load) and pages/s.
  const parser = new DocumentParser();
  const t0 = performance.now();
  let firstPage = 0;
  let lastPage = 0;
  try {
    await parser.parse(fileA, {
      kind: 'pdf',
      name: 'book.pdf',
      onProgress: (p) => {
        if (p === 1) firstPage = performance.now();
        lastPage = performance.now();
      },
    });
  } finally {
    await parser.close();
  }
  const bootMs = firstPage - t0;
  const parsePps = (pages - 1) / ((lastPage - firstPage) / 1000);
  Object.assign(result, { parseBootS: sec(bootMs), parsePagesPerS: Math.round(parsePps) });
  console.log(`parse worker: ${s(bootMs)} until the first page (thread start + pdfjs load), then ${parsePps.toFixed(0)} pages/s`);

  // 2. The whole path through a real core: the first file after start (cold parse worker), then another (warm).
  // Opened as the browser host opens it (app/hearth.ts), with what the app does after start in its first
  // quiet seconds (the recall warm-up, src/core/recall/warm-up.ts) done before the first file arrives.
  const core = await startHearth({ door: 'host', dataDir: join(dir, 'data') });
  await new Promise((r) => setTimeout(r, Number(values['drop-after']) * 1000));
  // How long each database transaction holds the database (a recall waits behind one): the embedding jobs write their vectors in one each.
  const txMs: number[] = [];
  {
    const db = core.ctx.db;
    const transaction = db.transaction.bind(db);
    db.transaction = (async (fn: Parameters<typeof transaction>[0]) => {
      const t = performance.now();
      try {
        return await transaction(fn);
      } finally {
        txMs.push(performance.now() - t);
      }
    }) as typeof db.transaction;
  }
  try {
    const cold = await ingestUntilSearchable(core, fileA, 1);
    const [info] = await core.call('knowledge.listSources', { persona: 'main' });
    console.log(`${info?.chunks} chunks of ~3000 chars per document`);
    result.chunks = info?.chunks;
    result.cold = report('cold (first ingest after start)', cold);

    // 3. Recall through the API while the document's chunks embed: it embeds its query with the busy local model.
    // The first embedding job starts the model (worker + load); the calls wait for that, so they measure the queueing.
    const loadStart = performance.now();
    while (!core.ctx.embedder.current('no-persona').warm() && performance.now() - loadStart < 60_000) await new Promise((r) => setTimeout(r, 20));
    const modelReadyMs = performance.now() - loadStart;
    const fallbacks: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void fallbacks.push(args.map(String).join(' '));
    const recallMs: number[] = [];
    try {
      for (let i = 0; i < recalls; i++) {
        const t = performance.now();
        await core.call('recall', { persona: 'main', query: knownSentence(2 + i, 1), kinds: ['knowledge'], limit: 3 });
        recallMs.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 150));
      }
    } finally {
      console.warn = warn;
    }
    const [mid] = await core.call('knowledge.listSources', { persona: 'main' });
    const stillEmbedding = (mid?.embedded ?? 0) < (mid?.chunks ?? 0);
    result.apiRecallWhileEmbedding = {
      modelReadyAfterJobS: sec(modelReadyMs),
      callsMs: recallMs.map(Math.round),
      calls: recallMs.length,
      p50Ms: Math.round(percentile(recallMs, 50)),
      p95Ms: Math.round(percentile(recallMs, 95)),
      maxMs: Math.round(Math.max(...recallMs)),
      textOnlyFallbacks: fallbacks.length,
      stillEmbeddingAfter: stillEmbedding,
    };
    console.log(`local model ready ${s(modelReadyMs)} after the ingest job (worker start + load, once per run)`);
    console.log(
      `recall through the API while embedding (${recallMs.length} calls, ${recallMs.map(Math.round).join('/')} ms): p50 ${Math.round(percentile(recallMs, 50))} ms, ` +
        `p95 ${Math.round(percentile(recallMs, 95))} ms, ` +
        `max ${Math.round(Math.max(...recallMs))} ms; query not embedded (text-only fallback) ${fallbacks.length}×` +
        `${stillEmbedding ? '' : ' (NOTE: embedding had finished before the last call)'}`,
    );

    if (!values['no-embed']) {
      const limit = Number(values['embed-timeout']) * 1000;
      const work0 = { busyMs: busyNow(), wall: performance.now(), cpu: process.cpuUsage() };
      const embedLoop = loopGapMonitor();
      let embedded = 0;
      let firstVectorsMs: number | null = null;
      let chunks = info?.chunks ?? 0;
      while (performance.now() - cold.start < limit) {
        const [src] = await core.call('knowledge.listSources', { persona: 'main' });
        embedded = src?.embedded ?? 0;
        chunks = src?.chunks ?? 0;
        // When the first chunks answer by meaning too (not only by text).
        if (embedded > 0 && firstVectorsMs === null) firstVectorsMs = performance.now() - cold.start;
        if (chunks > 0 && embedded >= chunks) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const embeddedMs = performance.now() - cold.start;
      // What the model was given for the whole document (windows, their characters) and how busy its thread was.
      const { rows: win } = await core.ctx.db.query<{ n: number; chars: number }>(
        `SELECT count(*)::int AS n, coalesce(sum(length(w.search_key)), 0)::int AS chars
         FROM knowledge_windows w JOIN knowledge_chunks c ON c.id = w.chunk_id
         WHERE c.persona = 'main' AND c.source = $1`,
        [cold.source],
      );
      const cpu = process.cpuUsage(work0.cpu);
      const wallS = (performance.now() - work0.wall) / 1000;
      const busyS = (busyNow() - work0.busyMs) / 1000;
      const shapes = [...modelWork.sizes].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${v}×${k}`).join(' ');
      result.modelWork = {
        windows: win[0]?.n,
        windowChars: win[0]?.chars,
        messagesTotal: modelWork.messages,
        textsTotal: modelWork.texts,
        messageSizes: shapes,
        modelThreads: sharedModelPool().size,
        answeredByThread: sharedModelPool().answeredByThread(),
        // Queries the query thread answered (docs/embeddings.md, "The query thread"), its own first call included.
        queryThreadAnswered: sharedModelPool().queryThread().answered,
        modelBusyShare: Number((busyS / wallS).toFixed(2)),
        processCpuS: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
        wallS: Number(wallS.toFixed(1)),
        transactions: txMs.length,
        transactionP50Ms: Math.round(percentile(txMs, 50)),
        transactionMaxMs: Math.round(Math.max(...txMs)),
      };
      console.log(
        `model work: ${win[0]?.n} windows (${win[0]?.chars} chars) in this document; ${modelWork.messages} messages, ${modelWork.texts} texts in all (texts a message × messages: ${shapes}; answered by thread ${sharedModelPool().answeredByThread().join('/')}, by the query thread ${sharedModelPool().queryThread().answered}); ` +
          `model thread busy ${Math.round((100 * busyS) / wallS)} % of ${wallS.toFixed(1)} s after the recalls; process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; ` +
          `${txMs.length} database transactions, p50 ${Math.round(percentile(txMs, 50))} ms, max ${Math.round(Math.max(...txMs))} ms`,
      );
      const embedGap = embedLoop.stop();
      console.log(`core thread while embedding: largest event-loop gap ${embedGap.maxGapMs} ms (delay p99 ${embedGap.delayP99Ms} ms)`);
      const model = core.ctx.embedder.model();
      Object.assign(result, { embeddingModel: model, fullyEmbedded: embedded >= chunks, fullyEmbeddedS: sec(embeddedMs), coreThreadWhileEmbedding: embedGap });
      if (embedded >= chunks) console.log(`fully embedded (${model}): ${s(embeddedMs)} (${chunks} chunks, ${(chunks / ((embeddedMs - cold.jobMs) / 1000)).toFixed(2)} chunks/s after the job)`);
      else console.log(`NOT fully embedded after ${s(embeddedMs)}: ${embedded}/${chunks} (${model})`);
      if (firstVectorsMs !== null) console.log(`first chunks searchable by meaning: ${s(firstVectorsMs)}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
      Object.assign(result, { firstVectorsS: firstVectorsMs === null ? null : sec(firstVectorsMs) });
    }

    // 4. A second, different document: the parse worker kept from the first one serves it.
    const warm = await ingestUntilSearchable(core, fileB, 1001);
    result.warm = report(`warm (second ingest, ${values['no-embed'] ? 'while the first embeds' : 'first fully embedded'})`, warm);
    result.textSearchableS = { cold: sec(cold.searchableMs), warm: sec(warm.searchableMs) };
    console.log(`sources: ${cold.source}, ${warm.source}`);
  } finally {
    await core.close();
  }
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  result.peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
  if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`peak RSS: ${mb(peakRss)} sampled; ${mb(process.resourceUsage().maxRSS * 1024)} maxRSS (whole process: PGlite, parse and embed workers)`);
} finally {
  clearInterval(sampler);
  rmSync(dir, { recursive: true, force: true });
}
