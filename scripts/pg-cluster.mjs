// A throwaway cluster of Debian's PostgreSQL for tests and benchmarks
// (scripts/test-servers.mjs, bench/server.ts; docs/server-mode.md): initdb on a
// free 127.0.0.1 port, as the postgres user when run as root, fsync off.
// Debian 12 has no pgvector package, so the cluster is text-only.
import { spawnSync } from 'node:child_process';
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
