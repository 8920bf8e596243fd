// npm run bench:mcp [-- --n 10000 --queries 200 --db DIR --json FILE]
// What MCP adds to a memory search: `search_memory` over Streamable HTTP to the
// browser host, over stdio forwarded to the host, and over stdio owning the
// folder, against a direct `recall` (in process, and through the host's /api).
// Same seeded corpus (src/core/testing/synthetic-corpus.ts) and queries for every door; the
// host-side doors take turns query by query so that machine load hits them alike.
// Needs the built app (npm run build:app). Query vectors come from the fake
// OpenAI-compatible server in this process, so the query embedding costs the same
// negligible time in every mode and the figures are the doors' own.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

// 3. No app running: the stdio server owns the folder.
{
  const owner = await stdioClient('bench-stdio-owner');
  for (const [i, query] of qs.entries()) record('search_memory, MCP stdio owning', i, await time(() => search(owner, query)));
  await owner.close();
}
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
console.log(`n=${n} memories, ${queries} calls per mode after ${warmup} warm-up; load average after: ${load()}`);
console.log('Stdio and HTTP rows are compared with /api/recall on the same host (taking turns); "stdio owning" with the in-process recall.');
if (values.json) writeFileSync(values.json, JSON.stringify({ n, queries, warmup, seed, dims, loadAverage: load(), table }, null, 2));
if (!values.db) rmSync(dataDir, { recursive: true, force: true });
