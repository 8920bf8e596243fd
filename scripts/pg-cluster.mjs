// A throwaway cluster of Debian's PostgreSQL for tests and benchmarks
// (scripts/test-servers.mjs, bench/server.ts; docs/server-mode.md): initdb on a
// free 127.0.0.1 port, as the postgres user when run as root, fsync off.
// Debian 12 has no pgvector package, so the cluster is text-only.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/**
 * Starts a cluster; resolves {url, stop()} (stop removes it), or {skip: reason} when PostgreSQL is not installed.
 */
export async function startPostgres() {
  const bin = pgBin();
  if (!bin) return { skip: 'PostgreSQL is not installed (apt-get install postgresql)' };
  const dir = mkdtempSync(join(tmpdir(), 'hearth-pg-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) chownSync(dir, ...uidGid('postgres'));
  const data = join(dir, 'data');
  // --no-sync: initdb would otherwise flush every file it wrote to disk (half its time on a loaded
  // machine, docs/testing.md); nothing in a throwaway cluster must survive a crash.
  const [c, a] = asOwner(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const init = await run(c, a);
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
  const start = await run(c2, a2);
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

/**
 * Runs a command to its end without blocking this process: test-servers.mjs runs the pglite-socket
 * pass meanwhile, and reads its output as it comes.
 */
function run(cmd, cmdArgs) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (e) => resolve({ status: null, stdout, stderr: `${stderr}${e.message}` }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function uidGid(user) {
  const out = spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim();
  const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim();
  return [Number(out), Number(gid)];
}
