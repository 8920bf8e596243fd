// Peak memory of the browser host while it receives big uploads (issue: bodies
// were buffered whole before the size check). Starts the built host
// (`out/main/host.js`, run `npm run build:app` first) on a temp data dir, resets
// its peak-RSS counter once it is up, sends N concurrent `knowledge.ingest`
// JSON bodies of SIZE MB each, and prints the host's peak RSS and each answer.
//   npm run bench:uploads -- [--mb 140] [--n 3] [--accept]
// --accept raises the file-size limit so the uploads are accepted (staged to
// disk) instead of refused as too large. Prints the load average: on a shared
// machine the timings are noisy; the RSS figures much less so.
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnHost } from '../e2e/host-process';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const MB = Number(arg('mb', '140'));
const N = Number(arg('n', '3'));
const ACCEPT = process.argv.includes('--accept');

function status(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** One JSON body of about `mb` MB: a text file's bytes as base64, produced piece by piece. */
function* body(i: number, mb: number): Generator<Buffer> {
  yield Buffer.from(`{"persona":"main","name":"big-${i}.txt","dataBase64":"`);
  // 48 KiB of text → exactly 64 KiB of base64 per piece.
  const piece = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(1200).slice(0, 48 * 1024)).toString('base64');
  const pieces = Math.ceil((mb * 1024 * 1024) / piece.length);
  for (let k = 0; k < pieces; k++) yield Buffer.from(piece);
  yield Buffer.from('"}');
}

interface Outcome {
  status: number | string;
  ms: number;
  sentMb: number;
  answer: string;
}

function send(port: number, token: string, i: number): Promise<Outcome> {
  const t0 = performance.now();
  let sent = 0;
  return new Promise((resolve) => {
    let done = false;
    const finish = (o: Omit<Outcome, 'ms' | 'sentMb'>) => {
      if (done) return;
      done = true;
      resolve({ ...o, ms: performance.now() - t0, sentMb: sent / 1024 / 1024 });
    };
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/knowledge.ingest',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => finish({ status: res.statusCode ?? 0, answer: text.slice(0, 160) }));
      res.on('error', (e) => finish({ status: res.statusCode ?? 0, answer: `response error: ${e.message}` }));
    });
    req.on('error', (e) => finish({ status: (e as NodeJS.ErrnoException).code ?? 'error', answer: e.message }));
    const pieces = body(i, MB);
    const pump = () => {
      for (;;) {
        if (done || req.destroyed) return;
        const next = pieces.next();
        if (next.done) return void req.end();
        sent += next.value.length;
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-uploads-'));
  const token = 'bench-uploads-token-0123456789';
  const host = await spawnHost({ dataDir, token });
  const pid = host.child.pid!;
  try {
    const call = async (method: string, args: unknown) => {
      const res = await fetch(`http://127.0.0.1:${host.port}/api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      return res.json() as Promise<{ ok: boolean }>;
    };
    if (ACCEPT) await call('settings.set', { maxIngestBytes: Math.ceil(MB * 1.1) * 1024 * 1024 });
    await new Promise((r) => setTimeout(r, 1000));
    const idle = status(pid);
    // Linux: writing 5 to clear_refs resets the peak (VmHWM) to the current RSS.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    let sampled = idle.rss;
    const sampler = setInterval(() => (sampled = Math.max(sampled, status(pid).rss)), 25);
    const t0 = performance.now();
    const outcomes = await Promise.all(Array.from({ length: N }, (_, i) => send(host.port, token, i)));
    const wall = performance.now() - t0;
    clearInterval(sampler);
    const after = status(pid);
    await new Promise((r) => setTimeout(r, 2000));
    const settled = status(pid);

    console.log(`uploads: ${N} concurrent JSON bodies of ${MB} MB (base64 of a text file), ${ACCEPT ? 'accepted (limit raised)' : 'refused (default 100 MB limit)'}`);
    console.log(`load average: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log(`host RSS idle before: ${idle.rss.toFixed(0)} MB`);
    console.log(`host peak RSS during the uploads: ${Math.max(after.hwm, sampled).toFixed(0)} MB (VmHWM ${after.hwm.toFixed(0)}, sampled ${sampled.toFixed(0)})`);
    console.log(`host RSS right after: ${after.rss.toFixed(0)} MB; 2 s later: ${settled.rss.toFixed(0)} MB`);
    console.log(`wall time: ${(wall / 1000).toFixed(1)} s`);
    for (const [i, o] of outcomes.entries()) {
      console.log(`  upload ${i}: HTTP ${o.status} after ${(o.ms / 1000).toFixed(1)} s, ${o.sentMb.toFixed(0)} MB sent — ${o.answer.replace(/\s+/g, ' ')}`);
    }
  } finally {
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
