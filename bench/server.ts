// Server mode in figures (docs/server-mode.md): `npm run bench:server -- [--n 10000] [--queries 100]
//   [--writes 300] [--concurrency 4] [--probes 60] [--seed 1] [--dims 512] [--only recall|server] [--json FILE]`
// 1. Recall p50/p95 at --n memories, the same data read two ways: PGlite directly (as the app
//    runs by default), and through the server backend (node-postgres) to that PGlite served over
//    the wire by pglite-socket, which has pgvector and pg_textsearch, so both rank alike.
// 2. On a throwaway Debian PostgreSQL 15 cluster (scripts/pg-cluster.mjs, as test:servers; text-only):
//    write throughput of one Hearth process alone, then of two processes writing at once.
// 3. On the same cluster: the time from a write returning on one process to its event on another
//    (LISTEN/NOTIFY), over --probes writes.
// Every figure is printed with the load average: on a shared 2-core machine they move with it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Events } from '../src/shared/api';
import { createCore } from '../src/core/index';
import { openPglite } from '../src/core/db/pglite';
import { importBatches } from '../src/core/memories/import';
import { recall } from '../src/core/recall/recall';
import { clusteredSpace, prng, question, syntheticMemories } from '../src/core/testing/synthetic-corpus';
import { startPostgres } from '../scripts/pg-cluster.mjs';
import { percentile, timed } from './latency-stats';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '100' },
    writes: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '4' },
    probes: { type: 'string', default: '60' },
    seed: { type: 'string', default: '1' },
    dims: { type: 'string', default: '512' },
    json: { type: 'string' },
    only: { type: 'string' },
  },
});
if (values.only && !['recall', 'server'].includes(values.only)) throw new Error('--only takes recall or server');
const [n, queries, writes, concurrency, probes, seed, dims] = (['n', 'queries', 'writes', 'concurrency', 'probes', 'seed', 'dims'] as const).map((k) => {
  const v = Number(values[k]);
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} takes a whole number ≥ 1`);
  return v;
}) as [number, number, number, number, number, number, number];

const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const f1 = (x: number) => Number(x.toFixed(1));
const result: Record<string, unknown> = { n, queries, writes, concurrency, probes, seed, dims };
const temps: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'hearth-bench-'));
  temps.push(d);
  return d;
};

/** Recall over the queries once to warm the caches, then again, timed. */
async function recallFigures(core: Awaited<ReturnType<typeof createCore>>, label: string) {
  const space = clusteredSpace(seed, dims, 24);
  const rnd = prng(seed + 2);
  const qs = Array.from({ length: queries }, () => ({ query: question(rnd), vector: space.sample(rnd) }));
  const args = (q: (typeof qs)[number]) => ({ persona: 'main', query: q.query, queryEmbedding: q.vector, limit: 10, kinds: ['memory' as const] });
  for (const q of qs) await recall(core.ctx, args(q));
  const ms: number[] = [];
  let hits = 0;
  for (const q of qs) {
    const r = await timed(() => recall(core.ctx, args(q)));
    ms.push(r.ms);
    hits += r.value.length;
  }
  const out = { p50: f1(percentile(ms, 50)), p95: f1(percentile(ms, 95)), hitsPerQuery: f1(hits / qs.length), load: load() };
  console.log(`recall, ${label}: p50 ${out.p50} ms, p95 ${out.p95} ms (${queries} hybrid queries, ${out.hitsPerQuery} hits each; load ${out.load})`);
  return out;
}

async function recallPart() {
  const dir = temp();
  console.log(`building ${n} memories (${dims}-d vectors) in PGlite…`);
  const direct = await createCore({ dataDir: dir, queues: {}, dailyBackups: false, startupCheckDelayMs: null });
  try {
    await importBatches(direct.ctx, [{ persona: 'main', rows: [...syntheticMemories({ n, seed: seed + 1, now: new Date(), space: clusteredSpace(seed, dims, 24) })] }]);
    await direct.ctx.db.exec('ANALYZE memories');
    result.recallPglite = await recallFigures(direct, 'PGlite directly');
  } finally {
    await direct.close();
  }
  // The same folder, now served over the wire; Hearth reaches it as it reaches any server.
  const { pg: db } = await openPglite(join(dir, 'pgdata'));
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  const port = server.getServerConn().split(':')[1];
  // One connection: pglite-socket interleaves several connections' messages (src/core/testing/server.ts).
  const viaServer = await createCore({ dataDir: temp(), databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres?pool_max=1`, queues: {}, dailyBackups: false });
  try {
    if (!viaServer.ctx.db.features.vector) throw new Error('pglite-socket came up without pgvector');
    result.recallServer = await recallFigures(viaServer, 'server backend (node-postgres → pglite-socket, same data)');
  } finally {
    await viaServer.close();
    await server.stop();
    await db.close();
  }
}

interface Writer {
  lines: AsyncIterableIterator<string>;
  /** Sends the one line a writer reads, and closes its input. */
  send(line: string): void;
  done: Promise<number | null>;
}

/** One Hearth process (bench/server-writer.ts) on the database. */
function writer(url: string, args: string[]): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'server-writer.ts'), '--url', url, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const done = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](),
    send: (line) => child.stdin!.end(`${line}\n`),
    done,
  };
}

async function nextJson(w: Writer): Promise<Record<string, unknown>> {
  const r = await w.lines.next();
  if (r.done) throw new Error('a writer process ended early');
  return JSON.parse(r.value) as Record<string, unknown>;
}

/** `count` writer processes writing `writes` memories each, started together; writes per second overall. */
async function throughput(url: string, count: number): Promise<{ perSecond: number; ms: number; load: string }> {
  const ws = Array.from({ length: count }, (_, i) => writer(url, ['--mode', 'throughput', '--n', String(writes), '--concurrency', String(concurrency), '--tag', `p${i}`]));
  for (const w of ws) await nextJson(w);
  ws.forEach((w) => w.send('go'));
  const each = await Promise.all(ws.map(nextJson));
  await Promise.all(ws.map((w) => w.done));
  const ms = Math.max(...each.map((e) => Number(e.ms)));
  return { perSecond: Math.round((count * writes) / (ms / 1000)), ms: Math.round(ms), load: load() };
}

async function serverPart() {
  const cluster = await startPostgres();
  if (cluster.skip !== undefined) {
    console.log(`PostgreSQL parts skipped: ${cluster.skip}`);
    result.postgres = { skipped: cluster.skip };
    return;
  }
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE hearth_bench');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/hearth_bench';
    const db = url.toString();
    // The listening Hearth; it also migrates the empty database before the writers start.
    const listener = await createCore({ dataDir: temp(), databaseUrl: db, queues: {}, dailyBackups: false });
    console.log(`PostgreSQL 15 cluster up and migrated (load ${load()})`);
    try {
      const one = await throughput(db, 1);
      console.log(`writes on PostgreSQL 15 (text-only), one process, ${concurrency} at a time: ${one.perSecond}/s (${writes} in ${one.ms} ms; load ${one.load})`);
      const two = await throughput(db, 2);
      console.log(`writes on PostgreSQL 15 (text-only), two processes at once, ${concurrency} at a time each: ${two.perSecond}/s overall (${2 * writes} in ${two.ms} ms; load ${two.load})`);
      result.writesOneProcess = one;
      result.writesTwoProcesses = two;

      const arrived = new Map<string, number>();
      listener.events.subscribe((name, payload, meta) => {
        if (name !== 'memories.changed' || !meta.remote) return;
        const at = performance.timeOrigin + performance.now();
        for (const id of (payload as Events['memories.changed']).ids) if (!arrived.has(id)) arrived.set(id, at);
      });
      const w = writer(db, ['--mode', 'latency', '--n', String(probes)]);
      await nextJson(w);
      const returned = new Map<string, number>();
      for (;;) {
        const line = await nextJson(w);
        if (line.done) break;
        returned.set(String(line.id), Number(line.returned));
      }
      await w.done;
      const deadline = Date.now() + 10_000;
      while (arrived.size < returned.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const delays = [...returned].filter(([id]) => arrived.has(id)).map(([id, t]) => arrived.get(id)! - t);
      const lat = { p50: f1(percentile(delays, 50)), p95: f1(percentile(delays, 95)), max: f1(Math.max(...delays)), arrived: delays.length, of: returned.size, load: load() };
      console.log(
        `write returned on one process → its event on the other: p50 ${lat.p50} ms, p95 ${lat.p95} ms, max ${lat.max} ms (${lat.arrived} of ${lat.of} writes; load ${lat.load})`,
      );
      result.writeToEvent = lat;
    } finally {
      await listener.close();
    }
  } finally {
    cluster.stop();
  }
}

const t0 = Date.now();
console.log(`bench:server (load ${load()})`);
try {
  if (values.only !== 'server') await recallPart();
  if (values.only !== 'recall') await serverPart();
} finally {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
}
result.totalS = Math.round((Date.now() - t0) / 1000);
console.log(`total ${result.totalS} s (load ${load()})`);
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
