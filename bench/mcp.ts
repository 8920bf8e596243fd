// npm run bench:mcp [-- --n 10000 --queries 200 --clients 20 --db DIR --json FILE]
// Part 1, the doors' start and stalls: spawn → first tool answer of a stdio
// server (cold: a new folder; warm: an existing folder no app holds; app
// running: forwarded), the stall of the first call after the app that took the
// folder over stops or is killed (target ≤ 2 s), and the p95 of a search with
// 20 stdio clients calling at once through a running host.
// Part 2, what MCP adds to a memory search: `search_memory` over Streamable HTTP to the
// browser host, over stdio forwarded to the host, and over stdio owning the
// folder, against a direct `recall` (in process, and through the host's /api).
// It also prints the resident memory of the stdio server that owns the folder (after `tools/list`,
// after one `search_memory`, after the measured searches).
// Same seeded corpus (src/core/testing/synthetic-corpus.ts) and queries for every door; the
// host-side doors take turns query by query so that machine load hits them alike.
// Needs the built app (npm run build:app). Query vectors come from the fake
// OpenAI-compatible server in this process, so the query embedding costs the same
// negligible time in every mode and the figures are the doors' own.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createCore } from '../src/core/index';
import { importBatches } from '../src/core/memories/import';
import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { startFakeServer } from '../src/core/testing/fake-openai/server';
import { percentile } from './latency-stats';
import { clusteredSpace, prng, question, syntheticMemories } from '../src/core/testing/synthetic-corpus';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    dims: { type: 'string', default: '512' },
    clients: { type: 'string', default: '20' },
    db: { type: 'string' },
    json: { type: 'string' },
  },
});
const n = Number(values.n);
const queries = Number(values.queries);
const warmup = Number(values.warmup);
const seed = Number(values.seed);
const dims = Number(values.dims);
const ROOT = join(import.meta.dirname, '..');
const HOST_JS = join(ROOT, 'out', 'main', 'host.js');
const MCP_JS = join(ROOT, 'out', 'main', 'mcp.js');
const TOKEN = 'bench-mcp-token-0123456789abcdef';
if (!existsSync(HOST_JS) || !existsSync(MCP_JS)) throw new Error('Build the app first: npm run build:app');

const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const f1 = (x: number) => Math.round(x * 10) / 10;
const fake = await startFakeServer();
installEmbeddings(fake, { dimensions: dims });
const dataDir = values.db ?? mkdtempSync(join(tmpdir(), 'hearth-bench-mcp-'));
mkdirSync(dataDir, { recursive: true });
const rnd = prng(seed + 2);
const qs = Array.from({ length: warmup + queries }, () => question(rnd));
const samples: Record<string, number[]> = {};
const record = (label: string, i: number, ms: number) => {
  if (i >= warmup) (samples[label] ??= []).push(ms);
};
/** Median of the per-query difference to the baseline, for modes that took turns with it (robust to load swings). */
const pairedMedian = (mode: string, baseline: string) => {
  const a = samples[mode]!;
  const b = samples[baseline]!;
  return percentile(a.map((x, i) => x - b[i]!), 50);
};
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${f1(Math.abs(x))} ms`;
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

// 1. The corpus, and the direct recall in this process (no door at all).
{
  const core = await createCore({ dataDir, queues: {} });
  await core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: fake.baseURL, model: 'fake-embed', dimensions: dims } });
  const have = (await core.call('memories.list', { persona: 'main', limit: 1 })).total;
  if (have < n) {
    console.log(`importing ${n - have} memories into ${dataDir}…`);
    const now = new Date();
    await importBatches(core.ctx, [{ persona: 'main', rows: [...syntheticMemories({ n: n - have, seed: seed + 1, now, space: clusteredSpace(seed, dims, 24) })] }]);
    await core.ctx.db.exec('ANALYZE memories');
  }
  console.log(`load average before: ${load()}`);
  for (const [i, query] of qs.entries()) record('recall, in process', i, await time(() => core.call('recall', { persona: 'main', query, limit: 5 })));
  await core.close();
}

function startHost(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [HOST_JS], { env: { ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_TOKEN: TOKEN, HEARTH_PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`the host exited (${code}): ${out}`)));
  });
}

/** A process's resident memory in MB (Linux's /proc; null elsewhere). */
function rssMb(pid: number | null): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

const stopChild = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGTERM'))));

async function stdioClient(name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_JS, '--persona', 'main', '--data-dir', dataDir], stderr: 'ignore' }));
  return client;
}

const search = (c: Client, query: string) => c.callTool({ name: 'search_memory', arguments: { query, limit: 5 } }, undefined, { timeout: 120_000 });

// 2. With the host running: /api/recall (the app's own door), MCP over HTTP, MCP over stdio forwarded to the host.
{
  const host = await startHost();
  const http = new Client({ name: 'bench-http', version: '1' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${host.port}/mcp?persona=main`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  const stdio = await stdioClient('bench-stdio-forwarded');
  const api = (query: string) =>
    fetch(`http://127.0.0.1:${host.port}/api/recall`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ persona: 'main', query, limit: 5 }) }).then((r) => r.json());
  for (const [i, query] of qs.entries()) {
    record('recall, host /api', i, await time(() => api(query)));
    record('search_memory, MCP over HTTP', i, await time(() => search(http, query)));
    record('search_memory, MCP stdio → host', i, await time(() => search(stdio, query)));
  }
  await stdio.close();
  await http.close();
  await stopChild(host.child);
}

// 3. No app running: the stdio server owns the folder. Its resident memory (threads included) after
// `tools/list` and after one search: what a tools-only server costs the machine (docs/startup.md).
const ownerRss: Record<string, number | null> = {};
{
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_JS, '--persona', 'main', '--data-dir', dataDir], stderr: 'ignore' });
  const owner = new Client({ name: 'bench-stdio-owner', version: '1' });
  await owner.connect(transport);
  await owner.listTools();
  ownerRss['after tools/list'] = rssMb(transport.pid);
  await search(owner, qs[0]!);
  ownerRss['after one search_memory'] = rssMb(transport.pid);
  for (const [i, query] of qs.entries()) record('search_memory, MCP stdio owning', i, await time(() => search(owner, query)));
  ownerRss[`after ${qs.length} more`] = rssMb(transport.pid);
  await owner.close();
}


// Part 1: start-up, the stall after a takeover, many clients at once.
const starts: Record<string, string | number>[] = [];
{
  const firstAnswer = async (dir: string, name: string) => {
    const t = performance.now();
    const client = new Client({ name, version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_JS, '--persona', 'main', '--data-dir', dir], stderr: 'ignore' }));
    const r = await client.callTool({ name: 'list_memories', arguments: { limit: 1 } }, undefined, { timeout: 240_000 });
    if (r.isError) throw new Error(`first call failed: ${JSON.stringify(r.content)}`);
    return { client, ms: performance.now() - t };
  };
  const cold = mkdtempSync(join(tmpdir(), 'hearth-bench-mcp-cold-'));
  const c1 = await firstAnswer(cold, 'bench-cold');
  await c1.client.close();
  rmSync(cold, { recursive: true, force: true });
  const warm = await firstAnswer(dataDir, 'bench-warm');
  starts.push({ what: 'spawn → first tool answer, cold (new folder)', ms: f1(c1.ms) }, { what: 'spawn → first tool answer, warm folder (stdio owns it)', ms: f1(warm.ms) });

  // The warm client owns the folder; a host started now takes it over.
  for (const end of ['stop', 'kill'] as const) {
    const host = await startHost();
    await search(warm.client, 'warm-up after the takeover');
    if (end === 'stop') await stopChild(host.child);
    else await new Promise<void>((r) => (host.child.once('exit', () => r()), host.child.kill('SIGKILL')));
    const stall = await time(() => warm.client.callTool({ name: 'list_memories', arguments: { limit: 1 } }, undefined, { timeout: 120_000 }));
    starts.push({ what: `first call after the app that took the folder over was ${end === 'stop' ? 'stopped' : 'killed (SIGKILL)'} (target ≤ 2000)`, ms: f1(stall) });
  }
  await warm.client.close();

  const host = await startHost();
  const forwarded = await firstAnswer(dataDir, 'bench-app-running');
  starts.push({ what: 'spawn → first tool answer, app running (forwarded)', ms: f1(forwarded.ms) });
  await forwarded.client.close();
  const nClients = Number(values.clients);
  const clients = await Promise.all(Array.from({ length: nClients }, (_, i) => stdioClient(`bench-many-${i}`)));
  await Promise.all(clients.map((c) => search(c, 'warm-up')));
  const lat: number[] = [];
  await Promise.all(clients.map(async (c, i) => {
    for (let k = 0; k < 5; k++) lat.push(await time(() => search(c, qs[(i * 5 + k) % qs.length]!)));
  }));
  starts.push({ what: `${nClients} stdio clients at once through the app, search_memory p50`, ms: f1(percentile(lat, 50)) });
  starts.push({ what: `${nClients} stdio clients at once through the app, search_memory p95`, ms: f1(percentile(lat, 95)) });
  await Promise.all(clients.map((c) => c.close()));
  await stopChild(host.child);
}
console.table(starts);
await fake.close();

const base = { inProcess: samples['recall, in process']!, host: samples['recall, host /api']! };
const table = Object.entries(samples).map(([mode, xs]) => {
  const owning = mode.includes('owning');
  const vs = owning ? base.inProcess : base.host;
  const added = mode.startsWith('recall')
    ? { p50: '—', p95: '—', paired: '—' }
    : {
        p50: signed(percentile(xs, 50) - percentile(vs, 50)),
        p95: signed(percentile(xs, 95) - percentile(vs, 95)),
        // Owning and in-process ran in different phases: no pairs.
        paired: owning ? 'n/a' : signed(pairedMedian(mode, 'recall, host /api')),
      };
  return { mode, calls: xs.length, p50: f1(percentile(xs, 50)), p95: f1(percentile(xs, 95)), 'added p50': added.p50, 'added p95': added.p95, 'added, paired median': added.paired };
});
console.table(table);
console.log(`stdio server owning the folder, resident memory (MB): ${Object.entries(ownerRss).map(([k, v]) => `${k} ${v ?? 'n/a'}`).join(', ')}`);
console.log(`n=${n} memories, ${queries} calls per mode after ${warmup} warm-up; load average after: ${load()}`);
console.log('Stdio and HTTP rows are compared with /api/recall on the same host (taking turns); "stdio owning" with the in-process recall.');
if (values.json) writeFileSync(values.json, JSON.stringify({ n, queries, warmup, seed, dims, loadAverage: load(), starts, ownerRssMb: ownerRss, table }, null, 2));
if (!values.db) rmSync(dataDir, { recursive: true, force: true });
