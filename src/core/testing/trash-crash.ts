// The trash under kill -9 (docs/trash.md, "Crashes"): a child process deletes and
// restores seeded items in a loop and is killed after a seeded number of
// acknowledged steps, so the kill lands in the next delete or restore. After
// reopening, each item must be live or in the trash — never both, never neither —
// holding what it held, and where its last acknowledged step put it.
import { spawn } from 'node:child_process';
import { createCore } from '../index';
import { replaceSource } from '../knowledge/store';
import { childScript } from './source-build';
import { type CrashItem, readCrashItems, TRASH_CRASH_PERSONA, whereIs } from './trash-crash-items';
import { waitForJobs } from './wait-jobs';

const quiet = { dailyBackups: false, startupCheckDelayMs: null } as const;
const keyOf = (i: CrashItem) => `${i.kind} ${i.key}`;

/** Seeds the persona (memories with versions and a supersession, dimensions, a document, all with vectors); returns each item's fingerprint. */
export async function seedCrashFolder(dataDir: string, embeddingsBaseUrl: string): Promise<Map<string, string>> {
  const core = await createCore({ dataDir, ...quiet, jobs: { pollMs: 50 } });
  try {
    await core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: embeddingsBaseUrl, model: 'fake-embed', dimensions: 16 } });
    const persona = (await core.call('personas.create', { name: TRASH_CRASH_PERSONA })).id;
    const facts = ['Lives in Lyon', 'Moved to Grenoble', 'Allergic to peanuts', 'Daughter Ada plays chess', 'Runs on Sundays', 'Works at Acme'];
    const ids: string[] = [];
    for (const [i, content] of facts.entries()) ids.push((await core.call('memories.write', { persona, content, importance: 3 + i })).id);
    await core.call('memories.supersede', { id: ids[0]!, by: ids[1]! });
    await core.call('memories.update', { id: ids[2]!, importance: 9 });
    await core.call('userModel.upsert', { persona, dimension: 'diet', content: 'Vegetarian', confidence: 7 });
    await core.call('userModel.upsert', { persona, dimension: 'work', content: 'Engineer', confidence: 6 });
    await replaceSource(core.ctx, {
      persona,
      source: 'house.md',
      kind: 'markdown',
      bytes: 321,
      pages: 1,
      chunks: ['The boiler is serviced in October.', 'The valve is under the stairs.', 'Bins go out on Tuesday.'].map((content) => ({ content, pageFrom: 1, pageTo: 1 })),
    });
    await waitForJobs(core, 'embeddings', 120_000);
    const out = new Map<string, string>();
    for (const item of await readCrashItems(core)) out.set(keyOf(item), (await whereIs(core, item)).live!);
    return out;
  } finally {
    await core.close();
  }
}

export interface KilledRun {
  /** Steps acknowledged before the process died (at least the number it was killed after). */
  acks: number;
  /** Where each item's last acknowledged step put it. */
  acked: Map<string, 'live' | 'trash'>;
  /** The step under way when the kill came (started, not acknowledged), if any. */
  inFlight: string | null;
}

/** Runs the child on the folder and kills it (SIGKILL) as soon as it has acknowledged `killAfter` steps; the steps it finished meanwhile count. */
export function killedTrashRun(dataDir: string, seed: number, killAfter: number): Promise<KilledRun> {
  const child = spawn(process.execPath, [childScript('trash-crash-child'), dataDir, String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run: KilledRun = { acks: 0, acked: new Map(), inFlight: null };
  let buf = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-10_000)));
  return new Promise((resolve, reject) => {
    let killed = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the trash crash child never reached ${killAfter} steps: ${stderr.slice(-2000)}`));
    }, 240_000);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      // Lines after the kill signal are read too: the child may finish a step or two before it dies,
      // and its writes to a pipe are synchronous on Linux, so every acknowledgement it made arrives.
      for (const l of lines) {
        const [tag, kind, key, state] = l.split(' ');
        if (tag === 'S') run.inFlight = `${kind} ${key}`;
        if (tag === 'A') {
          run.acks++;
          run.acked.set(`${kind} ${key}`, state as 'live' | 'trash');
          run.inFlight = null;
          if (run.acks >= killAfter && !killed) {
            // The kill, at a known point: right after this acknowledgement, as the next step begins.
            killed = true;
            child.kill('SIGKILL');
          }
        }
      }
    });
    // 'close', not 'exit': the last lines of its stdout are read before this.
    child.on('close', () => {
      clearTimeout(timer);
      if (killed) resolve(run);
      else reject(new Error(`the trash crash child exited on its own: ${stderr.slice(-2000)}`));
    });
    child.on('error', reject);
  });
}

export interface CrashCheck {
  items: number;
  /** Items in neither place. */
  lost: number;
  /** Items both live and in the trash. */
  doubled: number;
  /** Items whose content, importance or vectors differ from what was seeded. */
  changed: number;
  /** Items not where their last acknowledged step put them (the step in flight excepted). */
  misplaced: number;
  details: string[];
}

/** Reopens the folder and checks every seeded item. */
export async function checkAfterCrash(dataDir: string, seeded: Map<string, string>, run: KilledRun): Promise<CrashCheck> {
  const core = await createCore({ dataDir, ...quiet, queues: {} });
  const out: CrashCheck = { items: seeded.size, lost: 0, doubled: 0, changed: 0, misplaced: 0, details: [] };
  try {
    for (const [key, fingerprint] of seeded) {
      const [kind, ...rest] = key.split(' ');
      const where = await whereIs(core, { kind: kind as CrashItem['kind'], key: rest.join(' ') });
      const held = where.live ?? where.trash;
      if (where.live === null && where.trash === null) (out.lost++, out.details.push(`${key}: lost`));
      else if (where.live !== null && where.trash !== null) (out.doubled++, out.details.push(`${key}: live and in the trash`));
      if (held !== null && held !== fingerprint) (out.changed++, out.details.push(`${key}: holds ${held}, seeded ${fingerprint}`));
      const expected = run.acked.get(key) ?? 'live';
      const actual = where.live !== null ? 'live' : 'trash';
      if (key !== run.inFlight && held !== null && actual !== expected) (out.misplaced++, out.details.push(`${key}: ${actual}, acknowledged ${expected}`));
    }
  } finally {
    await core.close();
  }
  return out;
}
