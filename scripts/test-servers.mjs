#!/usr/bin/env node
// Runs the server-relevant core tests against real PostgreSQL servers, with
// the same test bodies `npm test` runs on PGlite (docs/server-mode.md):
//   postgres       Debian's PostgreSQL (no pgvector in Debian 12: text-only), a
//                  throwaway cluster made with initdb on a free 127.0.0.1 port
//   pglite-socket  PGlite served over the wire (pgvector and pg_textsearch)
// Usage: node scripts/test-servers.mjs [--only postgres|pglite-socket] [test files…]
// Without files: SERVER_FILES below, and on postgres E2E_FILES (Playwright,
// after the unit pass; the app is built first if out/ is stale). Files ending
// in .spec.ts are Playwright specs. Files that cannot apply to a server are
// listed in EXCLUDED with the reason, printed on every run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startPostgres } from './pg-cluster.mjs';

/** The files run on each server: the database layer and the domains that store and find memories. */
const SERVER_FILES = [
  'src/core/db/server.test.ts',
  'src/core/db/text-only.test.ts',
  'src/core/memories/memories.test.ts',
  'src/core/personas/handlers.test.ts',
  'src/core/jobs/runner.test.ts',
  // Recall without pg_textsearch (Hearth's own term counts, docs/ranking.md): hostile queries and persona isolation;
  // the comparison with pg_textsearch runs where it exists (pglite-socket) and skips with its reason elsewhere.
  'src/core/recall/robustness.test.ts',
  'src/core/recall/term-stats.test.ts',
  // Live updates between two Hearths on one database (LISTEN/NOTIFY); they skip on pglite-socket.
  'src/core/live/live.test.ts',
  // The review counter and the rolling summary raced by two Hearths on one database.
  'src/core/chat/compaction/fold.test.ts',
  // the ranking formula (docs/ranking.md) hand-computed, filters and counts, the time boost, knowledge windows:
  // their text paths run here (Hearth's own BM25); their vector tests skip, saying so, and run on pglite-socket.
  'src/core/recall/ranking.test.ts',
  'src/core/recall/filters.test.ts',
  'src/core/recall/time-boost.test.ts',
  'src/core/recall/knowledge-windows.test.ts',
  // The knowledge tool the chat calls, over documents stored on the server.
  'src/core/knowledge/tool.test.ts',
  // Settings → Data: the connection test and the copy of this computer's personas into a server.
  'src/core/server-switch/server-switch.test.ts',
];

/** End-to-end specs that need a real server (two hosts on one database): run on the postgres cluster only. */
const E2E_FILES = ['e2e/two-hosts.spec.ts'];

/**
 * pglite-socket has pgvector, so it runs the files whose vector paths the
 * text-only postgres pass skips; the rest would only repeat that pass, slower
 * (PGlite answers one statement at a time).
 */
const SOCKET_FILES = [
  'src/core/db/server.test.ts',
  'src/core/memories/memories.test.ts',
  'src/core/jobs/runner.test.ts',
  // Recall by meaning over the wire: knowledge windows ranked with their stored vectors.
  'src/core/recall/knowledge-windows.test.ts',
];

/** Core test files that never run on a server, and why (printed, so nothing is left out silently). */
const EXCLUDED = {
  'src/core/db/client.test.ts, power-loss, integrity, disk-full, data-folder, lock, two-hosts':
    'the embedded PGlite itself: its worker, its files on disk, the single-owner lock',
  'src/core/backups/*': 'backups and restore are the server\'s own on a server (Hearth refuses them with a message)',
  'src/core/db/migrate.test.ts': 'opens and reopens PGlite data folders; migrating a server is in server.test.ts',
  'src/core/recall/agreement.test.ts':
    'passes on both servers but takes ~50 s under load (thousands of rows), over the time these passes may add; its candidate paths are those ranking and filters test',
  'src/core/recall/bm25.test.ts': 'compares with pg_textsearch, which Debian\'s server lacks; term-stats checks Hearth\'s own BM25 against it where it exists',
  'src/core/knowledge/ingest.test.ts':
    'passes on a server but takes ~65 s: it tests reading files (PDF, text), which is the same on every database; what it stores is store\'s and tool\'s',
  'src/core/knowledge/store.test.ts':
    'its tests build on a first one that counts embedded chunks (none without pgvector); on pglite-socket it passes but takes ~35 s, over the time these passes may add',
  'src/core/recall/ranking.test.ts (on pglite-socket)':
    'passes there but takes ~60 s (a PGlite per fixture, one statement at a time); its text paths run on postgres, its vector formula on PGlite in npm test',
  'src/core/knowledge/chunk, windows; src/core/recall/memory-bounds, time-query': 'no database in them',
};

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : null;
const isSpec = (f) => f.endsWith('.spec.ts');
const files = args.length ? args.filter((f) => !isSpec(f)) : SERVER_FILES.filter((f) => existsSync(f));
const socketFiles = args.length ? args.filter((f) => !isSpec(f)) : SOCKET_FILES;
const specs = args.length ? args.filter(isSpec) : E2E_FILES.filter((f) => existsSync(f));

/** One run of a test tool against one server; its output is printed in one piece when it ends. */
function run(tool, url, label, list, { noun, tag }) {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npx', [...tool, ...list], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HEARTH_TEST_DATABASE_URL: url, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('exit', (code) => {
      console.log(`\n== ${label}: ${list.length} ${noun} against ${url}`);
      process.stdout.write(Buffer.concat(out));
      resolve({ code: code ?? 1, figure: `${label.split(' ')[0]}${tag} ${((Date.now() - t) / 1000).toFixed(0)} s` });
    });
  });
}

/** The unit files against one server (the passes run side by side). */
function vitest(url, label, list) {
  return run(['vitest', 'run'], url, label, list, { noun: 'files', tag: '' });
}

/** The Playwright specs against one server, once its unit pass is done (the hosts need the cores the unit tests use). */
async function playwright(url, label, list) {
  const { buildIfNeeded } = await import('./build-if-needed.mjs');
  buildIfNeeded();
  return run(['playwright', 'test'], url, label, list, { noun: 'Playwright specs', tag: ' e2e' });
}

console.log('Server test passes. Not run on a server, and why:');
for (const [what, why] of Object.entries(EXCLUDED)) console.log(`  - ${what}: ${why}`);

const started = Date.now();
const passes = [];
// The pglite-socket pass needs no cluster: it starts first, and initdb runs beside it.
if ((!only || only === 'pglite-socket') && socketFiles.length) {
  passes.push(vitest('pglite-socket', 'pglite-socket (pgvector, pg_textsearch; the vector paths)', socketFiles));
}
let pgServer = null;
if (!only || only === 'postgres') {
  try {
    pgServer = await startPostgres();
  } catch (e) {
    // The socket pass may be running: it is waited for, and the run fails with this reason.
    pgServer = { skip: null, failed: `postgres: ${e.message}` };
    passes.push(Promise.resolve({ code: 1, figure: pgServer.failed }));
  }
  if (pgServer.failed) console.log(`\n== ${pgServer.failed}`);
  else if (pgServer.skip) console.log(`\n== postgres: skipped: ${pgServer.skip}`);
  else {
    const label = 'postgres (text-only: no pgvector)';
    const unit = files.length ? vitest(pgServer.url, label, files) : Promise.resolve(null);
    // One after the other: two hosts and a browser beside the unit pass would only slow both on two cores.
    passes.push(unit);
    if (specs.length) passes.push(unit.then(() => playwright(pgServer.url, label, specs)));
  }
}
let results;
try {
  results = await Promise.all(passes);
} finally {
  if (pgServer?.stop) pgServer.stop();
}
results = results.filter(Boolean);
const failed = results.filter((r) => r.code !== 0).length;
const figures = results.map((r) => r.figure);
const { loadavg } = await import('node:os');
console.log(`\nServer passes: ${figures.join(', ')}; total ${((Date.now() - started) / 1000).toFixed(0)} s (load ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
process.exit(failed ? 1 : 0);
