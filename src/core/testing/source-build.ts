// The child processes tests start (a browser host, an MCP stdio server, the
// crash, power-loss and lock-race children), bundled from the current source the
// way the built app is: one flat folder, our .ts files bundled, packages left to
// Node, the worker threads as `<name>.js` beside the code that starts them.
//
// Why not `node --import tsx <file>.ts`: tsx sends every import of the child
// through its loader thread. A host from source took 7–8 CPU-s to print its URL
// on a template copy, against 4 for the same code bundled (docs/testing.md,
// fifth round), and a test file starts several.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { WORKER_ENTRIES } from '../worker-entries';
import { bundleSource } from '../worker-source';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CORE = join(ROOT, 'src', 'core');

/** The children, by the name of their file in the bundle. */
const CHILDREN = {
  host: 'src/host/start.ts',
  'mcp-stdio': 'src/mcp/stdio-main.ts',
  'crash-child': 'src/core/testing/crash-child.ts',
  'power-loss-child': 'src/core/testing/power-loss-child.ts',
  'power-loss-check': 'src/core/testing/power-loss-check.ts',
  'lock-racer': 'src/core/testing/lock-racer.ts',
  'trash-crash-child': 'src/core/testing/trash-crash-child.ts',
} as const;

export type ChildName = keyof typeof CHILDREN;

let built: string | null = null;

/** The bundled script of one child, ready for `node <file>`; the bundle is made once per process. */
export function childScript(name: ChildName): string {
  built ??= build();
  return join(built, `${name}.js`);
}

/**
 * Bundles every child and worker into `.cache/source-<hash>/` at the project
 * root: two levels down, as `out/main` is, so that what the code finds relative
 * to itself (the migrations, `scripts/mcp.mjs`) it finds here too. Named by a
 * hash of the output: a source change makes a new folder, and two processes
 * building at once agree (the first rename wins).
 */
function build(): string {
  const outdir = join(ROOT, '.cache', 'source-build');
  const entryPoints = {
    ...Object.fromEntries(Object.entries(CHILDREN).map(([name, file]) => [name, join(ROOT, file)])),
    ...Object.fromEntries(Object.entries(WORKER_ENTRIES).map(([name, file]) => [name, join(CORE, file)])),
  };
  const { outputFiles } = bundleSource({ entryPoints, outdir, splitting: true });
  const hash = createHash('sha256');
  for (const f of outputFiles) hash.update(relative(outdir, f.path)).update(f.contents);
  const final = join(ROOT, '.cache', `source-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(final)) return final;
  const partial = `${final}.${process.pid}.tmp`;
  for (const f of outputFiles) {
    const to = join(partial, relative(outdir, f.path));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, f.contents);
  }
  try {
    renameSync(partial, final);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(final)) throw e;
  }
  pruneOld(final);
  return final;
}

/** Bundles of older sources, untouched for a day, are removed: nothing can still be running them. */
function pruneOld(keep: string): void {
  const dir = dirname(keep);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!name.startsWith('source-') || path === keep) continue;
    if (Date.now() - statSync(path).mtimeMs > 24 * 3600_000) rmSync(path, { recursive: true, force: true });
  }
}
