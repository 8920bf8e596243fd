// Ingest throughput: `npm run bench:ingest -- --pages 100 [--no-embed] [--json FILE]`
// Generates a text PDF, drops it into a fresh core (real PGlite, the built-in
// local embedder) and prints: time until the document is searchable by text
// (ingest job done and recall finds a sentence), time until every chunk has a
// current-model vector, parsing pages/s, how long the core thread is ever
// blocked meanwhile, and the process's peak RSS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Job } from '../src/shared/api';
import { createCore } from '../src/core/index';
import { knownSentence, makeBookPdf } from '../src/core/knowledge/parse/test-pdfs';
import { parseFileInWorker } from '../src/core/knowledge/parse/run';
import { recall } from '../src/core/recall/recall';
import { loopGapMonitor } from './floor';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '100' },
    'no-embed': { type: 'boolean', default: false },
    'embed-timeout': { type: 'string', default: '900' },
    json: { type: 'string' },
  },
});
const pages = Number(values.pages);
if (!Number.isInteger(pages) || pages < 1) throw new Error('--pages takes a whole number ≥ 1');

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const sec = (ms: number) => Number((ms / 1000).toFixed(2));
const result: Record<string, unknown> = { pages };

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-ingest-'));
try {
  const pdf = await makeBookPdf(pages);
  const file = join(dir, `book-${pages}p.pdf`);
  writeFileSync(file, pdf);
  console.log(`PDF: ${pages} pages, ${(pdf.length / 1024).toFixed(0)} KB`);

  // 1. Parsing alone, in its worker: boot (thread + pdfjs import) and pages/s.
  const t0 = performance.now();
  let firstPage = 0;
  let lastPage = 0;
  await parseFileInWorker(file, {
    kind: 'pdf',
    name: 'book.pdf',
    onProgress: (p) => {
      if (p === 1) firstPage = performance.now();
      lastPage = performance.now();
    },
  });
  const bootMs = firstPage - t0;
  const parsePps = (pages - 1) / ((lastPage - firstPage) / 1000);
  Object.assign(result, { parseBootS: sec(bootMs), parsePagesPerS: Math.round(parsePps) });
  console.log(`parse worker: ${s(bootMs)} until the first page (thread start + pdfjs load), then ${parsePps.toFixed(0)} pages/s`);

  // 2. The whole path through a real core.
  const core = await createCore({ dataDir: join(dir, 'data') });
  try {
    const done = new Promise<Job>((resolve) =>
      core.events.subscribe((name, payload) => {
        if (name !== 'jobs.changed') return;
        const { job } = payload as { job: Job };
        if (job.queue === 'ingest' && (job.state === 'completed' || job.state === 'discarded')) resolve(job);
      }),
    );
    // How long the core thread (the one serving the UI) is ever blocked while the file goes in.
    const loop = loopGapMonitor();
    const start = performance.now();
    const { source } = await core.call('knowledge.ingest', { persona: 'main', path: file });
    const job = await done;
    const jobGap = loop.stop();
    if (job.state !== 'completed') throw new Error(`ingest failed: ${job.lastError}`);
    const jobMs = performance.now() - start;
    const target = Math.max(1, Math.round(pages * 0.7));
    const sentence = knownSentence(target, 2);
    // Text search needs no query vector: a text-only recall right after the job says whether the text is in.
    const hits = await recall(core.ctx, { persona: 'main', query: sentence, kinds: ['knowledge'], limit: 3, queryEmbedding: null });
    const searchableMs = performance.now() - start;
    // Through the API, recall first embeds the query with the local model, busy with the new chunks.
    const viaApi = performance.now();
    await core.call('recall', { persona: 'main', query: sentence, kinds: ['knowledge'], limit: 3 });
    const apiRecallMs = performance.now() - viaApi;
    const again = performance.now();
    await core.call('recall', { persona: 'main', query: knownSentence(2, 1), kinds: ['knowledge'], limit: 3 });
    const secondRecallMs = performance.now() - again;
    const found = hits.some((h) => h.content.replace(/\s+/g, ' ').includes(sentence));
    const [info] = await core.call('knowledge.listSources', { persona: 'main' });
    console.log(`ingest job done: ${s(jobMs)} (${info?.chunks} chunks of ~3000 chars)`);
    console.log(`core thread during the job: largest event-loop gap ${jobGap.maxGapMs} ms (delay p99 ${jobGap.delayP99Ms} ms)`);
    Object.assign(result, { chunks: info?.chunks, ingestJobS: sec(jobMs), textSearchableS: sec(searchableMs), found, apiRecallWhileEmbeddingS: [sec(apiRecallMs), sec(secondRecallMs)], coreThreadDuringIngest: jobGap });
    console.log(`text-searchable: ${s(searchableMs)} (recall of a page-${target} sentence: ${found ? `found, ${hits[0]?.tag}` : 'NOT FOUND'})`);
    console.log(`  → ${(pages / (searchableMs / 1000)).toFixed(1)} pages/s end to end to text search; text-only recall ${s(searchableMs - jobMs)}`);
    console.log(`recall through the API meanwhile (it embeds the query with the busy local model): ${s(apiRecallMs)}, next ${s(secondRecallMs)}`);

    if (!values['no-embed']) {
      const limit = Number(values['embed-timeout']) * 1000;
      const embedLoop = loopGapMonitor();
      let embedded = 0;
      let chunks = info?.chunks ?? 0;
      while (performance.now() - start < limit) {
        const [src] = await core.call('knowledge.listSources', { persona: 'main' });
        embedded = src?.embedded ?? 0;
        chunks = src?.chunks ?? 0;
        if (chunks > 0 && embedded >= chunks) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const embeddedMs = performance.now() - start;
      const embedGap = embedLoop.stop();
      console.log(`core thread while embedding: largest event-loop gap ${embedGap.maxGapMs} ms (delay p99 ${embedGap.delayP99Ms} ms)`);
      Object.assign(result, { embeddingModel: core.ctx.embeddingModel(), fullyEmbedded: embedded >= chunks, fullyEmbeddedS: sec(embeddedMs), coreThreadWhileEmbedding: embedGap });
      const model = core.ctx.embeddingModel();
      if (embedded >= chunks) console.log(`fully embedded (${model}): ${s(embeddedMs)} (${chunks} chunks, ${(chunks / ((embeddedMs - jobMs) / 1000)).toFixed(2)} chunks/s after the job)`);
      else console.log(`NOT fully embedded after ${s(embeddedMs)}: ${embedded}/${chunks} (${model})`);
    }
    console.log(`source: ${source}`);
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
