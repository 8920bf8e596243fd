#!/usr/bin/env node
// Runs the server-relevant core tests against real PostgreSQL servers, with
// the same test bodies `npm test` runs on PGlite (docs/server-mode.md):
//   postgres       Debian's PostgreSQL (no pgvector in Debian 12: text-only), a
//                  throwaway cluster made with initdb on a free 127.0.0.1 port
//   pglite-socket  PGlite served over the wire (pgvector and pg_textsearch)
// Usage: node scripts/test-servers.mjs [--only postgres|pglite-socket] [test files…]
// Without files: SERVER_FILES below. Files that cannot apply to a server are
// listed in EXCLUDED with the reason, printed on every run.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  // SPEC §4's formula hand-computed, filters and counts, the time boost, the second round, knowledge windows:
  // their text paths run here (Hearth's own BM25); their vector tests skip, saying so, and run on pglite-socket.
  'src/core/recall/ranking.test.ts',
  'src/core/recall/filters.test.ts',
  'src/core/recall/time-boost.test.ts',
  'src/core/recall/second-round.test.ts',
  'src/core/recall/knowledge-windows.test.ts',
  // The knowledge tool the chat calls, over documents stored on the server.
  'src/core/knowledge/tool.test.ts',
  // Settings → Data: the connection test and the copy of this computer's personas into a server.
  'src/core/server-switch/server-switch.test.ts',
];

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
const files = args.length ? args : SERVER_FILES.filter((f) => existsSync(f));
const socketFiles = args.length ? args : SOCKET_FILES;

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function pgBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

/** Postgres refuses to run as root: as root, the cluster belongs to the postgres user. */
function asOwner(cmd, cmdArgs) {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...cmdArgs]] : [cmd, cmdArgs];
}

async function startPostgres() {
  const bin = pgBin();
  if (!bin) return { skip: 'PostgreSQL is not installed (apt-get install postgresql)' };
  const dir = mkdtempSync(join(tmpdir(), 'hearth-pg-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) chownSync(dir, ...uidGid('postgres'));
  const data = join(dir, 'data');
  const [c, a] = asOwner(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const init = spawnSync(c, a, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  // A throwaway cluster for tests: no fsync (nothing here must survive a crash), sockets in its own folder.
  writeFileSync(join(dir, 'postgres.log'), '');
  if (process.getuid?.() === 0) chownSync(join(dir, 'postgres.log'), ...uidGid('postgres'));
  const [c2, a2] = asOwner(join(bin, 'pg_ctl'), [
    '-D', data, '-l', join(dir, 'postgres.log'), '-w', '-t', '120',
    '-o', `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    'start',
  ]);
  const start = spawnSync(c2, a2, { encoding: 'utf8' });
  if (start.status !== 0) throw new Error(`pg_ctl start failed: ${start.stderr}${start.stdout}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      const [c3, a3] = asOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      spawnSync(c3, a3);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function uidGid(user) {
  const out = spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim();
  const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim();
  return [Number(out), Number(gid)];
}

/** One vitest run against one server; its output is printed in one piece when it ends (the passes run side by side). */
function vitest(url, label, list) {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', ...list], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HEARTH_TEST_DATABASE_URL: url, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('exit', (code) => {
      console.log(`\n== ${label}: ${list.length} files against ${url}`);
      process.stdout.write(Buffer.concat(out));
      resolve({ code: code ?? 1, figure: `${label.split(' ')[0]} ${((Date.now() - t) / 1000).toFixed(0)} s` });
    });
  });
}

console.log('Server test passes. Not run on a server, and why:');
for (const [what, why] of Object.entries(EXCLUDED)) console.log(`  - ${what}: ${why}`);

const started = Date.now();
const passes = [];
let pgServer = null;
if (!only || only === 'postgres') {
  pgServer = await startPostgres();
  if (pgServer.skip) console.log(`\n== postgres: skipped: ${pgServer.skip}`);
  else passes.push(vitest(pgServer.url, 'postgres (text-only: no pgvector)', files));
}
if (!only || only === 'pglite-socket') {
  passes.push(vitest('pglite-socket', 'pglite-socket (pgvector, pg_textsearch; the vector paths)', socketFiles));
}
let results;
try {
  results = await Promise.all(passes);
} finally {
  if (pgServer && !pgServer.skip) pgServer.stop();
}
const failed = results.filter((r) => r.code !== 0).length;
const figures = results.map((r) => r.figure);
const { loadavg } = await import('node:os');
console.log(`\nServer passes: ${figures.join(', ')}; total ${((Date.now() - started) / 1000).toFixed(0)} s (load ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
process.exit(failed ? 1 : 0);
