// What a recall query waits for while a document embeds with the built-in
// model: knowledge windows (~370 characters, as ingest cuts them) embedded in
// the job's batches, an urgent one-line query every 250 ms. Prints the waits
// and the time the windows took (docs/memory-model.md, "The built-in model's cost").
// Run: npx tsx bench/query-wait.ts [windows=64] [file=../shared/bench-data/docs-dev/docs/json-types.md]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { LocalEmbedder } from '../src/core/providers/embeddings/local';
import { percentile } from './latency-stats';

const COUNT = Number(process.argv[2] ?? 64);
const FILE = process.argv[3] ?? new URL('../../shared/bench-data/docs-dev/docs/json-types.md', import.meta.url).pathname;
const prose = readFileSync(FILE, 'utf8').replace(/\s+/g, ' ');
const windows: string[] = [];
for (let i = 0; windows.length < COUNT; i = (i + 320) % Math.max(1, prose.length - 320)) {
  windows.push(`JSON Types · JSON Input and Output Syntax\n${prose.slice(i, i + 320)}`);
}

const e = new LocalEmbedder();
await e.embed(['warm up']);
const t0 = performance.now();
let embedding = true;
const work = (async () => {
  for (let i = 0; i < windows.length; i += e.maxBatch) await e.embed(windows.slice(i, i + e.maxBatch));
  embedding = false;
})();
const waits: number[] = [];
while (embedding) {
  await new Promise((r) => setTimeout(r, 250));
  const t = performance.now();
  await e.embed(['how do I store json in postgres?'], { urgent: true });
  waits.push(performance.now() - t);
}
await work;
const seconds = (performance.now() - t0) / 1000;
console.log(
  `${windows.length} windows embedded in ${seconds.toFixed(1)} s; ${waits.length} queries meanwhile waited ` +
    `p50 ${percentile(waits, 50).toFixed(0)} ms, max ${Math.max(...waits).toFixed(0)} ms; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
);
await e.close();
