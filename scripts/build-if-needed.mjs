import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const OUTPUTS = ['out/main/index.js', 'out/main/host.js', 'out/main/mcp.js', 'out/main/db-worker.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
const INPUTS = ['src', 'electron.vite.config.ts', 'package.json', 'package-lock.json'];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) {
    // Tests are not part of the app bundle.
    if (/\.test\.tsx?$/.test(name)) continue;
    newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
}

/** Why out/ must be rebuilt, or null when it is complete and newer than every source file. */
export function staleReason() {
  const missing = OUTPUTS.find((f) => !existsSync(join(ROOT, f)));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...OUTPUTS.map((f) => statSync(join(ROOT, f)).mtimeMs));
  const changed = INPUTS.find((f) => existsSync(join(ROOT, f)) && newestMtime(join(ROOT, f)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

/**
 * Runs `electron-vite build` when out/ is missing or older than the sources; exits on failure.
 * `toStderr`: the MCP stdio server's stdout carries the protocol, so the build must print elsewhere.
 */
export function buildIfNeeded({ toStderr = false } = {}) {
  templateIfNeeded({ toStderr });
  const reason = staleReason();
  if (!reason) return;
  (toStderr ? console.error : console.log)(`Building Hearth (${reason})…`);
  const res = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: toStderr ? ['ignore', 2, 2] : 'inherit',
  });
  if (res.status !== 0) {
    console.error('The build failed; see the messages above.');
    process.exit(res.status ?? 1);
  }
}

/** The migrated, empty database a first launch copies (src/core/db/pgdata-template.ts), when older than the migrations or the packages. */
function templateStale() {
  const root = join(ROOT, 'out', 'pgdata-template');
  if (!existsSync(root)) return true;
  const made = Math.max(
    0,
    ...readdirSync(root)
      .map((k) => join(root, k, 'pgdata', 'global', 'pg_control'))
      .filter((f) => existsSync(f))
      .map((f) => statSync(f).mtimeMs),
  );
  return ['migrations', 'package-lock.json'].some((f) => existsSync(join(ROOT, f)) && newestMtime(join(ROOT, f)) > made);
}

/**
 * Makes the template when missing or stale; a failure only costs the first launch its speed (it runs initdb then).
 * `toStderr` as for buildIfNeeded.
 */
export function templateIfNeeded({ toStderr = false } = {}) {
  if (!templateStale()) return;
  (toStderr ? console.error : console.log)('Making the empty database a first launch starts from…');
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'pgdata-template.ts')], {
    cwd: ROOT,
    stdio: toStderr ? ['ignore', 2, 2] : ['ignore', 'inherit', 'inherit'],
  });
  if (res.status !== 0) console.error('The empty database template could not be made; a first launch runs initdb instead.');
}
