// The built-in embedder, measured: model load time, texts/s for short (~55
// chars) and longer (~150 chars) texts, and resident memory.
// Run: npx tsx bench/embeddings.ts [count]
import { LocalEmbedder } from '../src/core/providers/embeddings/local';

const COUNT = Number(process.argv[2] ?? 240);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

const SUBJECTS = ['The user', 'My sister', 'Our team lead', 'The landlord', 'A neighbour', 'The doctor', 'Grandpa', 'The new intern'];
const VERBS = ['mentioned', 'decided', 'complained', 'promised', 'remembered', 'explained', 'admitted', 'suggested'];
const THINGS = ['the garden needs water', 'the trip moves to June', 'rent goes up in May', 'the report is late', 'jazz helps focus', 'coffee after noon ruins sleep', 'the bike needs new brakes', 'the cat hates the vet'];
const TAILS = [
  'and we agreed to talk about it again after the weekend, once everyone had time to think it over calmly',
  'which surprised nobody, although it will mean rearranging a few plans for the next couple of weeks',
  'so I wrote it down in the shared notes and set a reminder for the morning before the meeting',
  'and apparently this has been going on for a while, judging by the long thread of older messages',
];

function text(i: number, long: boolean): string {
  const base = `${SUBJECTS[i % 8]} ${VERBS[(i >> 3) % 8]} that ${THINGS[(i >> 6) % 8]} (#${i})`;
  return long ? `${base}, ${TAILS[i % 4]}.` : `${base}.`;
}

async function rate(e: LocalEmbedder, long: boolean): Promise<{ perSec: number; chars: number }> {
  const texts = Array.from({ length: COUNT }, (_, i) => text(i, long));
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += e.maxBatch) await e.embed(texts.slice(i, i + e.maxBatch));
  const s = (performance.now() - t0) / 1000;
  return { perSec: texts.length / s, chars: texts.reduce((n, t) => n + t.length, 0) / texts.length };
}

const e = new LocalEmbedder();
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
await e.embed(['warm-up']);
const firstMs = performance.now() - t0;
const rssLoaded = process.memoryUsage().rss;
console.log(`local model (${e.model}, ${e.dimensions}-d, batch ${e.maxBatch}), ${COUNT} texts per run`);
console.log(`  first embed (worker start + model load + 1 text): ${firstMs.toFixed(0)} ms; model load alone: ${e.loadMs?.toFixed(0)} ms`);
const short = await rate(e, false);
const long = await rate(e, true);
const t1 = performance.now();
for (let i = 0; i < 20; i++) await e.embed([text(i, false)], { urgent: true });
const queryMs = (performance.now() - t1) / 20;
console.log(`  short texts (~${short.chars.toFixed(0)} chars): ${short.perSec.toFixed(1)} texts/s`);
console.log(`  long texts (~${long.chars.toFixed(0)} chars): ${long.perSec.toFixed(1)} texts/s`);
console.log(`  one query (single text): ${queryMs.toFixed(1)} ms`);
console.log(`  RSS: ${mb(rss0)} before, ${mb(rssLoaded)} after load, ${mb(process.memoryUsage().rss)} after the runs (process incl. worker)`);
await e.close();
