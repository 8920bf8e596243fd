// Persona export and import at scale (issue #14): N memories with 512-d
// vectors plus a ~100-page document's chunks, exported to a .hearth file and
// imported back as a new persona. Prints rows/s and MB/s each way, the file
// size, the process's peak RSS growth over its level before each step, and
// the longest wait of another API call (memories.get, issued back to back)
// while each step runs. Medians of --runs (default 3).
// An import makes the persona visible (and searchable by text) once its rows
// are in; its vectors then join the HNSW index in the background, a few rows
// per statement (docs/export.md), and recall reads the ones not placed yet
// exactly (docs/import-at-scale.md). That phase is timed too, for at most
// --index-seconds (default 360) a run: when the memory placed last is first
// found by meaning (a recall with its own vector), how long recall by meaning
// takes meanwhile, rows placed per second (and CPU per row, which moves less
// with the load), and the longest wait of another call meanwhile.
//   npm run bench:export -- [--n 5000] [--chunks 150] [--runs 3] [--index-seconds 60] [--json FILE] [--before DIR] [--fast-setup]
// The default is short; the issue's figure is --n 50000. Prints the load
// average with every figure: on a shared 2-core machine timings are noisy.
// --before DIR: DIR holds another version of src/core/portable (a sibling
// folder of it, e.g. src/core/portable-before, filled with `git show
// BASE:src/core/portable/<file>`); each run then exports and imports with both
// versions in turn, alternating which goes first, so both meet the same load.
import { copyFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolve } from 'node:path';
import type { CoreContext } from '../src/core/context';
import { exportPersona } from '../src/core/portable/export';
import { importPersonaFile } from '../src/core/portable/import';
import { recall } from '../src/core/recall/recall';
import { makeTestCore } from '../src/core/testing/core';
import { importBenchPersona, loadBenchPersona } from './export-data';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const N = Number(arg('n', '5000'));
const CHUNKS = Number(arg('chunks', '150'));
const RUNS = Number(arg('runs', '3'));
const INDEX_SECONDS = Number(arg('index-seconds', '360'));
const JSON_OUT = process.argv.includes('--json') ? arg('json', '') : '';
const BEFORE = arg('before', '');
/** Build the persona by importing a generated file (minutes at 50k rather than most of an hour): export-data.ts. */
const FAST_SETUP = process.argv.includes('--fast-setup');

/** One version of the export and import code. */
interface Code {
  label: string;
  exportPersona(ctx: CoreContext, id: string): Promise<{ bytes: number; path: string }>;
  importPersonaFile(ctx: CoreContext, path: string): Promise<{ persona: { id: string; name: string } }>;
}
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const MB = 1024 * 1024;

interface Step {
  ms: number;
  /**
   * CPU time of the whole process (every thread: the database worker, gzip)
   * while the step ran: on a shared machine it moves far less with the load
   * than wall time does, so it says whether a change made less work.
   */
  cpuMs: number;
  peakRssGrowthMb: number;
  longestPauseMs: number;
  calls: number;
}

/** Runs `fn` while sampling RSS and timing back-to-back memories.get calls. */
async function measure(core: Awaited<ReturnType<typeof makeTestCore>>, probeId: string, fn: () => Promise<void>): Promise<Step> {
  global.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  let running = true;
  let longest = 0;
  let calls = 0;
  const prober = (async () => {
    while (running) {
      const t = performance.now();
      await core.dispatch('memories.get', { id: probeId });
      longest = Math.max(longest, performance.now() - t);
      calls++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  running = false;
  await prober;
  clearInterval(sampler);
  return { ms, cpuMs: (c.user + c.system) / 1000, peakRssGrowthMb: (peak - base) / MB, longestPauseMs: longest, calls };
}

async function main(): Promise<void> {
  console.log(`bench:export — ${N} memories (512-d vectors) + ${CHUNKS} chunks, ${RUNS} runs; load average at start ${load()}`);
  const core = await makeTestCore();
  const ctx = core.ctx;
  const probe = await core.call('memories.write', { persona: 'main', content: 'probe' });
  // The probe's vector comes from the local model, which loads on first use (~150 MB): wait for it here,
  // or its loading lands inside the first export and reads as the export's memory.
  while ((await core.call('memories.get', { id: probe.id })).embeddingStatus === 'pending') await new Promise((r) => setTimeout(r, 200));
  const t = performance.now();
  if (FAST_SETUP) await importBenchPersona(core, N, CHUNKS, join(tmpdir(), `hearth-bench-setup-${process.pid}.hearth`));
  else await loadBenchPersona(core, N, CHUNKS);
  console.log(`loaded${FAST_SETUP ? ' (generated file imported, vectors staged)' : ''} in ${((performance.now() - t) / 1000).toFixed(1)} s; load average ${load()}`);

  const rows = N + CHUNKS + 3;
  const codes: Code[] = [{ label: 'this code', exportPersona, importPersonaFile }];
  if (BEFORE) {
    const dir = resolve(BEFORE);
    const ex = (await import(join(dir, 'export.ts'))) as Pick<Code, 'exportPersona'>;
    const im = (await import(join(dir, 'import.ts'))) as Pick<Code, 'importPersonaFile'>;
    codes.push({ label: `before (${BEFORE})`, exportPersona: ex.exportPersona, importPersonaFile: im.importPersonaFile });
  }
  type Indexing = Step & { placed: number; of: number; meaningMs: number | null; recallMs: number[] };
  const results = codes.map(() => ({ exports: [] as (Step & { bytes: number })[], imports: [] as Step[], indexing: [] as Indexing[] }));
  const file = join(tmpdir(), `hearth-bench-export-${process.pid}.hearth`);
  for (let r = 0; r < RUNS; r++) {
    for (let k = 0; k < codes.length; k++) {
      const which = (k + r) % codes.length; // alternate which version goes first
      const code = codes[which]!;
      const { exports, imports, indexing } = results[which]!;
      let bytes = 0;
      const ex = await measure(core, probe.id, async () => {
        const res = await code.exportPersona(ctx, 'bench');
        bytes = res.bytes;
        copyFileSync(res.path, file);
        rmSync(res.path);
      });
      exports.push({ ...ex, bytes });
      let id = '';
      const im = await measure(core, probe.id, async () => {
        id = (await code.importPersonaFile(ctx, file)).persona.id;
      });
      imports.push(im);
      // Counting staged rows reads every row of the persona; polling that would slow what it measures.
      // So the loop watches the persona's embedding jobs (an index lookup) and counts rows once at each end.
      const staged = async () =>
        Number(
          (await ctx.db.query<{ n: number }>(
            `SELECT ((SELECT count(*) FROM memories WHERE persona = $1 AND staged_model IS NOT NULL)
                   + (SELECT count(*) FROM knowledge_chunks WHERE persona = $1 AND staged_model IS NOT NULL))::int AS n`,
            [id],
          )).rows[0]!.n,
        );
      const jobsLeft = async () =>
        Number(
          (await ctx.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM jobs WHERE persona = $1 AND queue = 'embeddings' AND state IN ('available', 'running', 'retryable')`,
            [id],
          )).rows[0]!.n,
        );
      const of = await staged();
      // The memory whose vector joins the graph last (jobs go in seq order): found by its own vector, the persona is searchable by meaning throughout.
      const last = (await ctx.db.query<{ id: string; v: string }>(
        `SELECT id, subvector(embedding, 1, 512)::text AS v FROM memories WHERE persona = $1 ORDER BY seq DESC LIMIT 1`, [id])).rows[0]!;
      const lastVector = JSON.parse(last.v) as number[];
      const recallMs: number[] = [];
      let meaningMs: number | null = null;
      const ix = await measure(core, probe.id, async () => {
        const t0 = performance.now();
        const until = t0 + INDEX_SECONDS * 1000;
        for (;;) {
          if (recallMs.length < 30 || meaningMs === null) {
            const t = performance.now();
            const hits = await recall(ctx, { persona: id, query: 'zzqx', queryEmbedding: lastVector, limit: 10, kinds: ['memory'] });
            recallMs.push(performance.now() - t);
            if (meaningMs === null && hits.some((h) => h.id === last.id && (h.score.cosine ?? 0) > 0.999)) meaningMs = performance.now() - t0;
          }
          if ((await jobsLeft()) === 0 || performance.now() >= until) break;
          await new Promise((r) => setTimeout(r, 1000));
        }
      });
      const left = await staged();
      indexing.push({ ...ix, placed: of - left, of, meaningMs, recallMs });
      const l = load();
      console.log(
        `run ${r + 1}, ${code.label}: export ${(ex.ms / 1000).toFixed(2)} s (${Math.round(rows / (ex.ms / 1000))} rows/s), import ${(im.ms / 1000).toFixed(2)} s (${Math.round(rows / (im.ms / 1000))} rows/s); ` +
          `CPU ${(ex.cpuMs / 1000).toFixed(1)} / ${(im.cpuMs / 1000).toFixed(1)} s; file ${(bytes / MB).toFixed(1)} MB; RSS +${ex.peakRssGrowthMb.toFixed(0)} / +${im.peakRssGrowthMb.toFixed(0)} MB; ` +
          `longest other-call wait ${ex.longestPauseMs.toFixed(0)} / ${im.longestPauseMs.toFixed(0)} ms; ` +
          `found by meaning ${meaningMs === null ? `not within ${INDEX_SECONDS} s` : `${(meaningMs / 1000).toFixed(1)} s`} after it was listed (recall by meaning meanwhile p50 ${median(recallMs).toFixed(0)} ms, max ${Math.max(...recallMs).toFixed(0)} ms); ` +
          `then ${of - left} of ${of} vectors joined the index in ${(ix.ms / 1000).toFixed(1)} s (${Math.round((of - left) / (ix.ms / 1000))} rows/s, ` +
          `${of > left ? (ix.cpuMs / (of - left)).toFixed(2) : '–'} CPU ms a row, longest other-call wait ${ix.longestPauseMs.toFixed(0)} ms); load average ${l}`,
      );
      const name = (await core.call('personas.list', {})).find((p) => p.id === id)!.name;
      await core.call('personas.delete', { id, confirm: name });
    }
  }
  const size = statSync(file).size;
  rmSync(file, { force: true });
  const fig = (steps: Step[]) => {
    const ms = median(steps.map((s) => s.ms));
    return {
      seconds: +(ms / 1000).toFixed(2),
      rowsPerSecond: Math.round(rows / (ms / 1000)),
      memoriesPerSecond: Math.round(N / (ms / 1000)),
      fileMbPerSecond: +(size / MB / (ms / 1000)).toFixed(1),
      cpuSeconds: +(median(steps.map((s) => s.cpuMs)) / 1000).toFixed(2),
      memoriesPerCpuSecond: Math.round(N / (median(steps.map((s) => s.cpuMs)) / 1000)),
      peakRssGrowthMb: Math.round(median(steps.map((s) => s.peakRssGrowthMb))),
      longestPauseMs: Math.round(median(steps.map((s) => s.longestPauseMs))),
    };
  };
  const index = (indexing: Indexing[]) => ({
    rowsPerSecond: Math.round(median(indexing.map((s) => s.placed / (s.ms / 1000)))),
    cpuMsPerRow: +median(indexing.map((s) => s.cpuMs / Math.max(1, s.placed))).toFixed(2),
    placed: median(indexing.map((s) => s.placed)),
    of: median(indexing.map((s) => s.of)),
    /** Seconds from listed until every vector is in the graph; null when a run's window ended first. */
    allPlacedSeconds: indexing.every((s) => s.placed === s.of) ? +(median(indexing.map((s) => s.ms)) / 1000).toFixed(1) : null,
    meaningSeconds: indexing.every((s) => s.meaningMs !== null) ? +(median(indexing.map((s) => s.meaningMs!)) / 1000).toFixed(1) : null,
    recallP50Ms: Math.round(median(indexing.map((s) => median(s.recallMs)))),
    recallMaxMs: Math.round(median(indexing.map((s) => Math.max(...s.recallMs)))),
    longestPauseMs: Math.round(median(indexing.map((s) => s.longestPauseMs))),
  });
  const figures = codes.map((c, i) => ({ code: c.label, export: fig(results[i]!.exports), import: fig(results[i]!.imports), index: index(results[i]!.indexing) }));
  const out = { n: N, chunks: CHUNKS, runs: RUNS, fileMb: +(size / MB).toFixed(1), figures, loadAverage: load() };
  console.log('\n| median of ' + RUNS + ' | rows/s | memories/s | file MB/s | CPU s (all threads) | memories per CPU-s | peak RSS growth | longest wait of another call |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const f of figures) {
    for (const k of ['export', 'import'] as const) {
      const x = f[k];
      console.log(`| ${k}${codes.length > 1 ? ` (${f.code})` : ''} | ${x.rowsPerSecond} | ${x.memoriesPerSecond} | ${x.fileMbPerSecond} | ${x.cpuSeconds} | ${x.memoriesPerCpuSecond} | ${x.peakRssGrowthMb} MB | ${x.longestPauseMs} ms |`);
    }
  }
  for (const f of figures) {
    console.log(
      `vectors joining the index after an import (background${codes.length > 1 ? `, ${f.code}` : ''}): ${f.index.rowsPerSecond} rows/s, ${f.index.cpuMsPerRow} CPU ms a row (${f.index.placed} of ${f.index.of} in the window), ` +
        `recall by meaning meanwhile p50 ${f.index.recallP50Ms} ms, max ${f.index.recallMaxMs} ms, longest wait of another call ${f.index.longestPauseMs} ms`,
    );
  }
  // The four figures of a big import (docs/import-at-scale.md), medians of the runs.
  console.log(`\n| median of ${RUNS}, ${N} memories${codes.length > 1 ? ', code' : ''} | export s | import until listed and searchable by text s | searchable by meaning s after listed | every vector in the graph s after listed | longest wait of another call (export / import / after) ms |`);
  console.log('|---|---|---|---|---|---|');
  for (const f of figures) {
    const never = `> ${INDEX_SECONDS}`;
    console.log(
      `| ${codes.length > 1 ? f.code : 'this code'} | ${f.export.seconds} | ${f.import.seconds} | ${f.index.meaningSeconds ?? never} | ${f.index.allPlacedSeconds ?? `${never} (${f.index.rowsPerSecond} rows/s)`} | ` +
        `${f.export.longestPauseMs} / ${f.import.longestPauseMs} / ${f.index.longestPauseMs} |`,
    );
  }
  console.log(`file: ${out.fileMb} MB for ${N} memories + ${CHUNKS} chunks; load average ${out.loadAverage}`);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(out, null, 2));
  await core.dispose();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
