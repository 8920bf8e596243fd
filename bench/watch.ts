// Watched folders: `npm run bench:watch -- [--files 2000] [--idle 30] [--edits 5] [--embed]`
// Generates a Markdown vault (--files notes in folders of 50, a hidden .obsidian folder beside them) in a
// temp dir, opens a fresh core (real PGlite) allowed to watch it, and prints:
//   1. watch → all text-searchable: from knowledge.watch until every note is ingested and the last one
//      answers recall by a word only it holds;
//   2. one edit → updated recall: from writing a changed note until recall finds its new word (median of
//      --edits; includes the watcher's one-second debounce);
//   3. the watcher's CPU while nothing changes: the process's CPU over --idle seconds with the watch on,
//      then again after knowledge.unwatch, side by side (the difference is the watcher's).
// Without --embed the core serves no embedding queue: the figures are the watcher and the text path alone
// (embedding is bench:ingest's subject). With --embed the fake OpenAI-compatible server embeds.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { queueDefs } from '../src/core/app/queues';
import { type Core, createCore } from '../src/core/index';
import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { type FakeServer, startFakeServer } from '../src/core/testing/fake-openai/server';
import { templateCopy } from '../src/core/testing/core';
import { waitFor, waitForJobs } from '../src/core/testing/wait-jobs';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '2000' },
    idle: { type: 'string', default: '30' },
    edits: { type: 'string', default: '5' },
    embed: { type: 'boolean', default: false },
  },
});
const FILES = Number(values.files);
const IDLE_S = Number(values.idle);
const EDITS = Number(values.edits);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

const WORDS = 'river stone garden letter window harbour lantern meadow orchard candle compass thunder maple ferry'.split(' ');

function note(i: number, marker: string): string {
  const words = Array.from({ length: 120 }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(' ');
  return `# Note ${i}\n\nThis note holds the marker ${marker}.\n\n${words}.\n\n## Details\n\n${words.split(' ').reverse().join(' ')}.\n`;
}

const marker = (i: number, version = 0) => `zq${i.toString(36)}v${version}x`;
const notePath = (vault: string, i: number) => join(vault, `folder-${Math.floor(i / 50)}`, `note-${i}.md`);

function makeVault(root: string): string {
  const vault = join(root, 'vault');
  for (let i = 0; i < FILES; i++) {
    mkdirSync(join(vault, `folder-${Math.floor(i / 50)}`), { recursive: true });
    writeFileSync(notePath(vault, i), note(i, marker(i)));
  }
  mkdirSync(join(vault, '.obsidian'), { recursive: true });
  writeFileSync(join(vault, '.obsidian', 'workspace.md'), 'hidden');
  return vault;
}

async function finds(core: Core, word: string): Promise<boolean> {
  const hits = await core.call('recall', { persona: 'main', query: word, limit: 5, kinds: ['knowledge'] });
  return hits.some((h) => h.content.includes(word));
}

/** The process's CPU (user + system) over `seconds` of wall time, in % of one core. */
async function idleCpu(seconds: number): Promise<number> {
  const start = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const used = process.cpuUsage(start);
  return ((used.user + used.system) / 1000 / (performance.now() - t0)) * 100;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'hearth-bench-watch-'));
  const dataDir = await templateCopy();
  let core: Core | null = null;
  let server: FakeServer | null = null;
  try {
    const t = performance.now();
    const vault = makeVault(root);
    console.log(`bench:watch — ${FILES} Markdown notes generated in ${((performance.now() - t) / 1000).toFixed(1)} s; load average ${load()}`);
    const { embeddings: _off, ...withoutEmbeddings } = queueDefs;
    core = await createCore({ dataDir, dailyBackups: false, startupCheckDelayMs: null, watchDirs: [root], ...(values.embed ? {} : { queues: withoutEmbeddings }) });
    const c = core;
    if (values.embed) {
      server = await startFakeServer();
      installEmbeddings(server, { dimensions: 16 });
      await c.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 } });
    }

    const t0 = performance.now();
    await c.call('knowledge.watch', { persona: 'main', folder: vault });
    const w = await waitFor(
      async () => {
        const { watches } = await c.call('knowledge.watches', { persona: 'main' });
        const one = watches[0]!;
        return one.counts.ingested + one.counts.error === FILES && one;
      },
      'every note to be ingested',
      3_600_000,
      { events: c.events, on: ['knowledge.watch'], pollMs: 1000 },
    );
    if (!(await finds(c, marker(FILES - 1)))) throw new Error('the last note is not found by recall');
    const all = (performance.now() - t0) / 1000;
    console.log(`watch → all text-searchable: ${all.toFixed(1)} s (${w.counts.ingested} ingested, ${w.counts.error} errors; ${(FILES / all).toFixed(0)} notes/s); load ${load()}`);

    const edits: number[] = [];
    for (let e = 1; e <= EDITS; e++) {
      const i = Math.floor((e * FILES) / (EDITS + 1));
      const word = marker(i, e);
      const te = performance.now();
      writeFileSync(notePath(vault, i), note(i, word));
      await waitFor(() => finds(c, word), 'the edit in recall', 60_000, { pollMs: 50 });
      edits.push(performance.now() - te);
    }
    console.log(
      `one edit → updated recall: median ${median(edits).toFixed(0)} ms (${edits.map((x) => x.toFixed(0)).join(', ')}; includes the 1 s debounce); load ${load()}`,
    );

    if (values.embed) await waitForJobs(c, 'embeddings', 3_600_000);
    const watching = await idleCpu(IDLE_S);
    const loadWatching = load();
    const rssWatching = process.memoryUsage().rss / 1024 / 1024;
    await c.call('knowledge.unwatch', { persona: 'main', folder: vault });
    const unwatched = await idleCpu(IDLE_S);
    console.log(
      `idle CPU over ${IDLE_S} s, whole process: ${watching.toFixed(2)} % watching ${FILES} notes (load ${loadWatching}) vs ${unwatched.toFixed(2)} % after unwatch (load ${load()})`,
    );
    console.log(`process RSS while watching: ${rssWatching.toFixed(0)} MB`);
  } finally {
    await core?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
