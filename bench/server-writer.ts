// One Hearth process for bench/server.ts: a core on the database it is given,
// in a temp data folder, writing memories. Prints one JSON line per result.
//   throughput: --n writes, --concurrency at a time, after the parent says "go" on stdin
//   latency:    --n writes one at a time, --gap ms apart; prints when each write returned
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createCore } from '../src/core/index';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    mode: { type: 'string', default: 'throughput' },
    n: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '4' },
    gap: { type: 'string', default: '60' },
    tag: { type: 'string', default: 'w' },
  },
});
const n = Number(values.n);
const say = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);
/** Milliseconds on a clock both processes share (this machine's), to compare times across them. */
const clock = () => performance.timeOrigin + performance.now();

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-'));
const core = await createCore({ dataDir: dir, databaseUrl: values.url!, queues: {}, dailyBackups: false });
try {
  say({ ready: true });
  if (values.mode === 'throughput') {
    // Both writers start together: the parent answers once each is ready.
    const lines = createInterface({ input: process.stdin });
    await new Promise<void>((r) => lines.once('line', () => r()));
    // An open stdin would keep this process alive after its work.
    lines.close();
    process.stdin.destroy();
    let next = 0;
    const t0 = clock();
    const worker = async () => {
      while (next < n) {
        const i = next++;
        await core.call('memories.write', { persona: 'main', content: `${values.tag} wrote note ${i} about the garden and the shed` });
      }
    };
    await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
    say({ writes: n, ms: clock() - t0 });
  } else {
    for (let i = 0; i < n; i++) {
      const m = await core.call('memories.write', { persona: 'main', content: `latency probe ${i}` });
      say({ id: m.id, returned: clock() });
      await new Promise((r) => setTimeout(r, Number(values.gap)));
    }
    say({ done: true });
  }
} finally {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
}
