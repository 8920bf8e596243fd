// A seeded synthetic memory corpus for latency and agreement measurements:
// realistic-ish sentences, clustered unit vectors, days spread over a year,
// importance 1–10. Same seed → same corpus, so runs compare.

/** mulberry32: small, fast, good enough for synthetic data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

function gaussian(rnd: () => number): number {
  const u = Math.max(rnd(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

const PEOPLE = ['Alice', 'Bob', 'my sister', 'the landlord', 'Priya', 'Marco', 'the dentist', 'my manager', 'Grandma', 'Tom'];
const VERBS = ['talked about', 'planned', 'finished', 'argued over', 'cancelled', 'booked', 'reviewed', 'started', 'postponed', 'celebrated'];
const THINGS = [
  'the kitchen renovation', 'a trip to Lisbon', 'the quarterly budget', 'marathon training', 'the new espresso machine',
  'piano lessons', 'the garden shed', 'a job interview', 'the database migration', 'a birthday dinner', 'tax returns',
  'the hiking route', 'a sourdough recipe', 'the car repair', 'a photography course', 'the release deadline',
];
const PLACES = ['at home', 'at the office', 'in the park', 'over the phone', 'at the cafe', 'on the train', 'by email', 'at the gym'];
const TAILS = [
  'and it went better than expected', 'but nothing was decided', 'which took most of the afternoon',
  'and we agreed to revisit it next week', 'because the weather was terrible', 'and I felt relieved afterwards',
  'though the costs keep rising', 'while drinking black coffee', 'and promised to send the notes',
];
export const CATEGORIES = ['journal', 'project', 'health', 'family', 'finance', 'travel', 'work', 'hobby'];

export function sentence(rnd: () => number): string {
  return `${pick(rnd, PEOPLE)} and I ${pick(rnd, VERBS)} ${pick(rnd, THINGS)} ${pick(rnd, PLACES)}, ${pick(rnd, TAILS)}.`;
}

/** Short natural-language questions over the same vocabulary. */
export function question(rnd: () => number): string {
  const forms = [
    () => `What did ${pick(rnd, PEOPLE)} say about ${pick(rnd, THINGS)}?`,
    () => `When did we ${pick(rnd, VERBS)} ${pick(rnd, THINGS)}?`,
    () => `anything ${pick(rnd, PLACES)} about ${pick(rnd, THINGS)}`,
    () => `${pick(rnd, THINGS)} ${pick(rnd, TAILS)}`,
  ];
  return pick(rnd, forms)();
}

export interface VectorSpace {
  dims: number;
  /** A unit vector near one of the clusters. */
  sample(rnd: () => number): Float32Array;
}

export function clusteredSpace(seed: number, dims: number, clusters: number, spread = 0.6): VectorSpace {
  const rnd = prng(seed);
  const centres = Array.from({ length: clusters }, () => normalise(Float32Array.from({ length: dims }, () => gaussian(rnd))));
  return {
    dims,
    sample(r) {
      const c = pick(r, centres);
      const v = new Float32Array(dims);
      for (let i = 0; i < dims; i++) v[i] = c[i]! + (spread * gaussian(r)) / Math.sqrt(dims);
      return normalise(v);
    },
  };
}

export interface SyntheticMemory {
  content: string;
  category: string;
  importance: number;
  day: string;
  insertedAt: Date;
  embedding: Float32Array | null;
}

export interface CorpusOptions {
  n: number;
  seed: number;
  now: Date;
  space: VectorSpace;
  /** Share of rows that carry a vector (the rest wait for embedding). */
  withVectors?: number;
  spanDays?: number;
}

export function* syntheticMemories(o: CorpusOptions): Generator<SyntheticMemory> {
  const rnd = prng(o.seed);
  const span = (o.spanDays ?? 365) * 86_400_000;
  for (let i = 0; i < o.n; i++) {
    const insertedAt = new Date(o.now.getTime() - rnd() * span);
    yield {
      content: sentence(rnd),
      category: pick(rnd, CATEGORIES),
      importance: 1 + Math.floor(rnd() * 10),
      day: insertedAt.toISOString().slice(0, 10),
      insertedAt,
      embedding: rnd() < (o.withVectors ?? 1) ? o.space.sample(rnd) : null,
    };
  }
}
