// Which statements make another call wait while a big export or import runs,
// and while its vectors join the graph afterwards (docs/export.md, "Other
// calls go on"). Every request the core sends to the database worker is
// recorded with its SQL shape, rows and the time it ran in the database; a
// call (memories.get) is issued back to back meanwhile, as bench/export.ts
// does, and each of its longest waits is printed with the statements that ran
// while it waited and any stall of the core thread's event loop (JSON, gzip,
// COPY blobs made in JavaScript block it too). One run; prints the load.
//   npx tsx bench/export-waits.ts [--n 20000] [--chunks 150] [--index-seconds 120] [--top 8]
import { copyFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PgliteDb } from '../src/core/db/client';
import { exportPersona } from '../src/core/portable/export';
import { importPersonaFile } from '../src/core/portable/import';
import { recall } from '../src/core/recall/recall';
import { makeTestCore } from '../src/core/testing/core';
import { importBenchPersona } from './export-data';

const arg = (n: string, d: string) => { const i = process.argv.indexOf(`--${n}`); return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : d; };
const N = Number(arg('n', '20000'));
const CHUNKS = Number(arg('chunks', '150'));
const INDEX_SECONDS = Number(arg('index-seconds', '120'));
const TOP = Number(arg('top', '8'));
/** Prints each request that ran longer than this as it ends (wall clock), to line up with other traces. */
const LIVE = Number(arg('live', '0'));
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** One request to the database worker: [sent, answered] on the core thread's clock, and its time in the database. */
interface Req { shape: string; sent: number; answered: number; dbMs: number; rows: number; page?: number }
const reqs: Req[] = [];
/** Gaps of the core thread's event loop longer than 25 ms: [from, to]. */
const stalls: [number, number][] = [];
const shape = (sql: string) => sql.replace(/\s+/g, ' ').replace(/\$\d+/g, '$').replace(/\(\d+, \$::vector\)(, \(\d+, \$::vector\))*/g, '(…vectors)').trim().slice(0, 90);

/** Wraps the worker's request channel: everything the core asks the database, transactions' BEGIN/COMMIT included. */
function tap(db: PgliteDb): void {
  const d = db as unknown as { send(body: { op: string; sql?: string; params?: unknown[] }): Promise<unknown> };
  const send = d.send.bind(db);
  d.send = async (body) => {
    const sent = performance.now();
    const out = await send(body);
    const answered = performance.now();
    const r = out as { ms?: number; rows?: { n?: unknown }[]; affectedRows?: number } | null;
    // A page that counts its own rows (the staged pass) says how many it walked.
    const page = typeof r?.rows?.[0]?.n === 'number' ? (r.rows[0].n as number) : undefined;
    reqs.push({
      ...(page === undefined ? {} : { page }),
      shape: body.sql ? shape(body.sql) : body.op, sent, answered,
      dbMs: r && typeof r.ms === 'number' ? r.ms : answered - sent, rows: Math.max(r?.rows?.length ?? 0, r?.affectedRows ?? 0),
    });
    if (LIVE && answered - sent > LIVE) console.log(`${Date.now()} request ${(answered - sent).toFixed(0)} ms (database ${reqs[reqs.length - 1]!.dbMs.toFixed(0)}) «${reqs[reqs.length - 1]!.shape}»`);
    return out;
  };
}

function watchLoop(): () => void {
  let last = performance.now();
  const t = setInterval(() => {
    const now = performance.now();
    if (now - last > 25) stalls.push([last, now]);
    last = now;
  }, 2);
  return () => clearInterval(t);
}

const core = await makeTestCore();
const ctx = core.ctx;
const probe = await core.call('memories.write', { persona: 'main', content: 'probe' });
while ((await core.call('memories.get', { id: probe.id })).embeddingStatus === 'pending') await new Promise((r) => setTimeout(r, 200));
await importBenchPersona(core, N, CHUNKS, join(tmpdir(), `hearth-waits-setup-${process.pid}.hearth`));
console.log(`export-waits — ${N} memories + ${CHUNKS} chunks; load ${load()}`);
tap(ctx.db.local!);
const unwatch = watchLoop();

/** Runs fn while memories.get is issued back to back; prints the longest waits and what held them up. */
async function phase(name: string, fn: () => Promise<void>): Promise<void> {
  const from = reqs.length;
  const waits: [number, number][] = [];
  let running = true;
  const prober = (async () => {
    while (running) {
      const t = performance.now();
      await core.dispatch('memories.get', { id: probe.id });
      waits.push([t, performance.now()]);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  running = false;
  await prober;
  const mine = reqs.slice(from);
  console.log(`\n## ${name}: ${(ms / 1000).toFixed(1)} s, ${mine.length} requests, ${waits.length} calls; load ${load()}`);
  console.log(`\nlongest waits of the other call, with the requests that ran meanwhile (database ms, rows) and event-loop stalls:`);
  for (const [a, b] of [...waits].sort((x, y) => y[1] - y[0] - (x[1] - x[0])).slice(0, TOP)) {
    const during = mine.filter((r) => r.answered > a && r.answered - r.dbMs < b).sort((x, y) => y.dbMs - x.dbMs);
    const stall = stalls.filter(([s, e]) => e > a && s < b).map(([s, e]) => `${(e - s).toFixed(0)}`);
    console.log(`- ${(b - a).toFixed(0)} ms (at +${((a - t0) / 1000).toFixed(1)} s): ` +
      during.slice(0, 4).map((r) => `${r.dbMs.toFixed(0)} ms/${r.page ?? r.rows} rows «${r.shape}»`).join('; ') +
      (during.length > 4 ? `; +${during.length - 4} more` : '') + (stall.length ? `; loop stalls ${stall.join(', ')} ms` : ''));
  }
  const kinds = new Map<string, number[]>();
  for (const r of mine) kinds.set(r.shape, [...(kinds.get(r.shape) ?? []), r.dbMs]);
  console.log(`\nby kind, longest first (n, max, p90, total database ms):`);
  for (const [k, xs] of [...kinds].sort((x, y) => Math.max(...y[1]) - Math.max(...x[1])).slice(0, TOP * 2)) {
    const s = [...xs].sort((p, q) => p - q);
    console.log(`- ${s.length} × max ${s[s.length - 1]!.toFixed(0)}, p90 ${s[Math.floor(s.length * 0.9)]!.toFixed(0)}, total ${s.reduce((p, q) => p + q, 0).toFixed(0)}: «${k}»`);
  }
  const st = stalls.filter(([s]) => s >= t0);
  console.log(`event-loop stalls > 25 ms: ${st.length}, longest ${Math.max(0, ...st.map(([s, e]) => e - s)).toFixed(0)} ms`);
}

const file = join(tmpdir(), `hearth-waits-${process.pid}.hearth`);
await phase('export', async () => {
  const res = await exportPersona(ctx, 'bench');
  copyFileSync(res.path, file);
  rmSync(res.path);
});
let id = '';
await phase('import', async () => {
  id = (await importPersonaFile(ctx, file)).persona.id;
});
rmSync(file, { force: true });
const jobsLeft = async () =>
  Number((await ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE persona = $1 AND queue = 'embeddings' AND state IN ('available', 'running', 'retryable')`, [id])).rows[0]!.n);
const last = (await ctx.db.query<{ v: string }>(`SELECT subvector(embedding, 1, 512)::text AS v FROM memories WHERE persona = $1 ORDER BY seq DESC LIMIT 1`, [id])).rows[0]!;
const lastVector = JSON.parse(last.v) as number[];
await phase('vectors joining the graph (a recall by meaning each second, as bench/export.ts)', async () => {
  const until = performance.now() + INDEX_SECONDS * 1000;
  for (;;) {
    await recall(ctx, { persona: id, query: 'zzqx', queryEmbedding: lastVector, limit: 10, kinds: ['memory'] });
    if ((await jobsLeft()) === 0 || performance.now() >= until) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
});
unwatch();
await core.dispose();
