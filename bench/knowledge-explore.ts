// Offline study of knowledge ranking choices over a `bench:knowledge --dump FILE` (the stored chunks and
// windows with their lexeme counts and vectors, the questions with theirs): each scheme is docs/ranking.md's
// 0.4·text + 0.6·cosine over the same rows, differing only in WHAT the text and the cosine are
// computed from. Prints R@1/R@3/R@5/MRR per scheme and per question type, and a document-fold
// figure (the scheme chosen on the other documents by MRR). `npx tsx bench/knowledge-explore.ts FILE`.
import { readFileSync } from 'node:fs';

interface Row { tf: Record<string, number> | null; v: number[] | null; key: string }
interface ChunkRow extends Row { htf?: Record<string, number> | null; id: string; source: string; chunk_index: number; content: string }
interface WindowRow extends Row { chunk_id: string; window_index: number; start_at: number; end_at: number }
interface Q { id: string; doc: string; type: string; question: string; tf: Record<string, number>; v: number[]; gold: string[] }
const data = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { chunks: ChunkRow[]; windows: WindowRow[]; questions: Q[] };
const { chunks, windows, questions } = data;

let K1 = Number(process.env.K1 ?? 1.2);
const N = chunks.filter((c) => c.tf && Object.keys(c.tf).length).length;
const df = new Map<string, number>();
for (const c of chunks) for (const l of Object.keys(c.tf ?? {})) df.set(l, (df.get(l) ?? 0) + 1);
const idf = (l: string) => Math.log(1 + (N - (df.get(l) ?? 0) + 0.5) / ((df.get(l) ?? 0) + 0.5));
const len = (r: Row) => Object.values(r.tf ?? {}).reduce((a, b) => a + b, 0);
const avgChunk = chunks.reduce((a, c) => a + len(c), 0) / chunks.length;
const avgWin = windows.reduce((a, w) => a + len(w), 0) / windows.length;

function bm25(q: Q, tf: Record<string, number> | null, b = 0, l = 0, avg = 1): number {
  if (!tf) return 0;
  let s = 0;
  for (const [lex, rep] of Object.entries(q.tf)) {
    const f = tf[lex];
    if (!f) continue;
    s += rep * idf(lex) * ((f * (K1 + 1)) / (f + K1 * (1 - b + (b * l) / avg)));
  }
  return s;
}
const cos = (a: number[], b: number[]) => {
  let d = 0, x = 0, y = 0;
  for (let i = 0; i < a.length; i++) { d += a[i]! * b[i]!; x += a[i]! ** 2; y += b[i]! ** 2; }
  return d / Math.sqrt(x * y);
};
/** Lexeme counts `a` + w·`b`: a chunk's key with its headings' words counted w more times. */
const plus = (a: Record<string, number> | null, b: Record<string, number> | null | undefined, w: number) => {
  const out = { ...(a ?? {}) };
  for (const [l, n] of Object.entries(b ?? {})) out[l] = (out[l] ?? 0) + w * n;
  return out;
};
const winsOf = new Map<string, WindowRow[]>();
for (const w of windows) winsOf.set(w.chunk_id, [...(winsOf.get(w.chunk_id) ?? []), w]);

interface Feat { headText: (w: number) => number; chunkText: number; chunkTextB: number; chunkTextB3: number; winText: number[]; winTextB: number[]; winCos: number[]; chunkCos: number }
function features(q: Q): Map<string, Feat> {
  const out = new Map<string, Feat>();
  for (const c of chunks) {
    const ws = winsOf.get(c.id) ?? [];
    out.set(c.id, {
      chunkText: bm25(q, c.tf),
      headText: (w: number) => bm25(q, plus(c.tf, c.htf, w)),
      chunkTextB: bm25(q, c.tf, 0.75, len(c), avgChunk),
      chunkTextB3: bm25(q, c.tf, 0.3, len(c), avgChunk),
      winText: ws.map((w) => bm25(q, w.tf)),
      winTextB: ws.map((w) => bm25(q, w.tf, 0.75, len(w), avgWin)),
      winCos: ws.map((w) => (w.v ? cos(q.v, w.v) : 0)),
      chunkCos: c.v ? cos(q.v, c.v) : 0,
    });
  }
  return out;
}
const feats = new Map(questions.map((q) => [q.id, features(q)]));
const max = (xs: number[]) => xs.reduce((m, x) => Math.max(m, x), -Infinity);
const top2 = (xs: number[]) => { const s = [...xs].sort((a, b) => b - a); return s.length > 1 ? (s[0]! + s[1]!) / 2 : s[0] ?? 0; };
const around = (xs: number[], i: number, r: number) => xs.slice(Math.max(0, i - r), i + r + 1).reduce((a, b) => a + b, 0);

/** A scheme: per chunk a raw text score and a cosine; text is scaled by the query's best. */
type Scheme = (f: Feat) => { text: number; cos: number } | { joint: (scale: number) => number; text: number };
const schemes: Record<string, (f: Feat) => { text: number; cos: number }> = {
  'now: key bm25 b0 + best window cos': (f) => ({ text: f.chunkText, cos: max(f.winCos) }),
  'key bm25 b.75 + best window cos': (f) => ({ text: f.chunkTextB, cos: max(f.winCos) }),
  'best window bm25 + best window cos': (f) => ({ text: max(f.winText), cos: max(f.winCos) }),
  'best window±1 bm25 + best window cos': (f) => ({ text: max(f.winText.map((_, i) => around(f.winText, i, 1))), cos: max(f.winCos) }),
  'key b0 + window b0 (half each) + cos': (f) => ({ text: f.chunkText + max(f.winText), cos: max(f.winCos) }),
  'key b.75 + best window bm25 + cos': (f) => ({ text: f.chunkTextB + max(f.winText), cos: max(f.winCos) }),
  'key bm25 b0 + chunk(mean) cos': (f) => ({ text: f.chunkText, cos: f.chunkCos }),
  'key bm25 b0 + mean(best window, chunk) cos': (f) => ({ text: f.chunkText, cos: (max(f.winCos) + f.chunkCos) / 2 }),
  'text only key b0': (f) => ({ text: f.chunkText, cos: 0 }),
  'key + headings ×1 more + best window cos': (f) => ({ text: f.headText(1), cos: max(f.winCos) }),
  'key + headings ×2 more + best window cos': (f) => ({ text: f.headText(2), cos: max(f.winCos) }),
  'key + headings ×4 more + best window cos': (f) => ({ text: f.headText(4), cos: max(f.winCos) }),
  'key b.3 + best window cos': (f) => ({ text: f.chunkTextB3, cos: max(f.winCos) }),
  'key b0 + mean of top-2 window cos': (f) => ({ text: f.chunkText, cos: top2(f.winCos) }),
  'key b0 + best window-pair cos': (f) => ({ text: f.chunkText, cos: max(f.winCos.map((c, i) => (i + 1 < f.winCos.length ? (c + f.winCos[i + 1]!) / 2 : c))) }),
  'cos only best window': (f) => ({ text: 0, cos: max(f.winCos) }),
};
// Joint: each window scored 0.4·text_w + 0.6·cos_w (text scaled by the best window), the chunk by its best window.
const joint: Record<string, { text: (f: Feat) => number[]; cos: (f: Feat) => number[] }> = {
  'joint window (bm25 b0, cos) best': { text: (f) => f.winText, cos: (f) => f.winCos },
  'joint window±1 text + own cos best': { text: (f) => f.winText.map((_, i) => around(f.winText, i, 1)), cos: (f) => f.winCos },
};

function rankOf(q: Q, scores: Map<string, number>): number | null {
  const order = [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
  const i = order.findIndex(([id]) => q.gold.includes(id));
  return i < 0 ? null : i + 1;
}
function ranks(name: string): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const q of questions) {
    const fs = feats.get(q.id)!;
    const scores = new Map<string, number>();
    if (schemes[name]) {
      const raw = [...fs].map(([id, f]) => [id, schemes[name]!(f)] as const);
      const best = max(raw.map(([, r]) => r.text));
      for (const [id, r] of raw) scores.set(id, 0.4 * (best > 0 ? r.text / best : 0) + 0.6 * r.cos);
    } else {
      const j = joint[name]!;
      const raw = [...fs].map(([id, f]) => [id, j.text(f), j.cos(f)] as const);
      const best = max(raw.flatMap(([, t]) => t));
      for (const [id, t, c] of raw) scores.set(id, max(t.map((x, i) => 0.4 * (best > 0 ? x / best : 0) + 0.6 * c[i]!)));
    }
    out.set(q.id, rankOf(q, scores));
  }
  return out;
}
function metrics(rs: (number | null)[]) {
  const at = (k: number) => rs.filter((r) => r !== null && r <= k).length / rs.length;
  return { n: rs.length, r1: at(1), r3: at(3), r5: at(5), r10: at(10), mrr: rs.reduce<number>((a, r) => a + (r ? 1 / r : 0), 0) / rs.length };
}
const fmt = (m: ReturnType<typeof metrics>) => `${m.r1.toFixed(3)} ${m.r3.toFixed(3)} ${m.r5.toFixed(3)} ${m.r10.toFixed(3)} ${m.mrr.toFixed(3)}`;
const names = [...Object.keys(schemes), ...Object.keys(joint)];
const all = new Map(names.map((n) => [n, ranks(n)]));
const types = [...new Set(questions.map((q) => q.type))].sort();
console.log(`chunks ${chunks.length}, windows ${windows.length}, questions ${questions.length}`);
console.log(`scheme | R@1 R@3 R@5 R@10 MRR | ${types.map((t) => `${t} R@1`).join(' | ')}`);
for (const [n, r] of all) {
  console.log(`${n.padEnd(48)} | ${fmt(metrics(questions.map((q) => r.get(q.id)!)))} | ${types.map((t) => metrics(questions.filter((q) => q.type === t).map((q) => r.get(q.id)!)).r1.toFixed(3)).join(' | ')}`);
}
// Document folds: the scheme is chosen on the other documents' questions (MRR), scored on the held-out ones.
const docs = [...new Set(questions.map((q) => q.doc))].sort();
const k = 4;
const cv = new Map<string, number | null>();
const chosen: string[] = [];
for (let f = 0; f < k; f++) {
  const held = new Set(docs.filter((_, i) => i % k === f));
  let best = '', bestM = -1;
  for (const [n, r] of all) {
    const m = metrics(questions.filter((q) => !held.has(q.doc)).map((q) => r.get(q.id)!)).mrr;
    if (m > bestM) [best, bestM] = [n, m];
  }
  chosen.push(best);
  for (const q of questions.filter((x) => held.has(x.doc))) cv.set(q.id, all.get(best)!.get(q.id)!);
}
console.log(`folds chose: ${chosen.join(' / ')}\nfold-validated: ${fmt(metrics(questions.map((q) => cv.get(q.id)!)))}`);

// Diagnostic (not the ranking formula): the best any weight a·text + (1−a)·cos could do with these features.
if (process.env.ALPHA) {
  for (const a of [0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]) {
    const rs = questions.map((q) => {
      const raw = [...feats.get(q.id)!].map(([id, f]) => [id, f.chunkText, max(f.winCos)] as const);
      const best = max(raw.map(([, t]) => t));
      return rankOf(q, new Map(raw.map(([id, t, c]) => [id, a * (t / best) + (1 - a) * c])));
    });
    console.log(`a=${a}: ${fmt(metrics(rs))}`);
  }
}
