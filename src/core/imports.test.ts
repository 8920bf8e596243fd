import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Guards the direction of imports described in docs/architecture.md, so the
// floors stay as drawn while files are added: a violation fails with the file
// and the import that broke the rule.

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

// Core folders and root files that are mechanisms: they never import a domain.
// Any other folder under src/core (besides app/ and testing/) is a domain.
const MECHANISM_DIRS = new Set(['db', 'jobs', 'providers', 'parse', 'secrets', 'text']);
const MECHANISM_FILES = new Set([
  'abort.ts',
  'context.ts',
  'data-dir.ts',
  'disk-full.ts',
  'dispatch.ts',
  'events.ts',
  'method.ts',
  'page-paths.ts',
  'schemas.ts',
  'text-safety.ts',
  'time.ts',
  'worker-entries.ts',
  'worker-source.ts',
  'workers.ts',
]);

interface Edge {
  from: string; // repo-relative
  to: string; // repo-relative, resolved
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

function resolveImport(file: string, spec: string): string | null {
  const base = resolve(dirname(file), spec.replace(/\?.*$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const IMPORT = /(?:\b(?:import|export)\s[^'"`;]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function edges(): Edge[] {
  return sourceFiles(SRC).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(IMPORT)].flatMap(([, spec]) => {
      if (!spec!.startsWith('.')) return [];
      const target = resolveImport(file, spec!);
      return target ? [{ from: relative(ROOT, file), to: relative(ROOT, target) }] : [];
    });
  });
}

const isTest = (path: string) => /\.(test|type-test)\.tsx?$/.test(path);
const inDir = (path: string, dir: string) => path.startsWith(`${dir}/`);
const isRoot = (path: string) => path === 'src/core/index.ts' || inDir(path, 'src/core/app');
const isFixture = (path: string) => inDir(path, 'src/core/testing');

function coreArea(path: string): 'root' | 'testing' | 'mechanism' | 'domain' | null {
  if (!inDir(path, 'src/core')) return null;
  if (isRoot(path)) return 'root';
  const [first, ...rest] = path.slice('src/core/'.length).split('/');
  if (first === 'testing') return 'testing';
  if (rest.length === 0) return MECHANISM_FILES.has(first!) || isTest(first!) ? 'mechanism' : 'domain';
  return MECHANISM_DIRS.has(first!) ? 'mechanism' : 'domain';
}

const all = edges();
const show = (list: Edge[]) => list.map((e) => `${e.from} -> ${e.to}`);

// The folder graph: one node per folder directly under src/core and one per root file, an arrow
// wherever a shipped file of one imports a file of another (imports inside a folder are not arrows).
type Graph = Map<string, Map<string, Edge[]>>;
const nodeOf = (path: string) => path.slice('src/core/'.length).split('/')[0]!;

function folderGraph(list: Edge[]): Graph {
  const graph: Graph = new Map();
  for (const e of list) {
    if (isTest(e.from) || !inDir(e.from, 'src/core') || !inDir(e.to, 'src/core') || isFixture(e.from)) continue;
    const [a, b] = [nodeOf(e.from), nodeOf(e.to)];
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    const out = graph.get(a)!;
    out.set(b, [...(out.get(b) ?? []), e]);
  }
  return graph;
}

/** Each strongly connected group of nodes (Tarjan), as one shortest cycle through its first node. */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups.map((group) => {
    // Breadth-first from the first node back to it, inside the group: the shortest loop to show.
    const start = group[0]!;
    const from = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      const next = [...(graph.get(v)?.keys() ?? [])].filter((w) => group.includes(w));
      if (next.includes(start)) {
        const path = [v];
        while (path[0] !== start) path.unshift(from.get(path[0]!)!);
        return [...path, start];
      }
      for (const w of next) {
        if (from.has(w) || w === start) continue;
        from.set(w, v);
        queue.push(w);
      }
    }
    return group;
  });
}

/** A cycle as a person fixes it: the loop, then the imports that make each of its arrows. */
function explain(graph: Graph, cycle: string[]): string {
  const arrows = cycle.slice(1).map((to, i) => {
    const made = graph.get(cycle[i]!)!.get(to)!;
    return `  ${cycle[i]} -> ${to}: ${show(made.slice(0, 3)).join(', ')}${made.length > 3 ? ` and ${made.length - 3} more` : ''}`;
  });
  return [cycle.join(' -> '), ...arrows].join('\n');
}

/**
 * The core modules a shell imports besides src/core/index.ts: each entry file's first import sets the
 * umask before any other module runs (docs/architecture.md), and the browser host's entry starts the
 * database thread before the rest of the core loads (docs/startup.md). Anything else goes through the core's face.
 */
const SHELL_CORE_IMPORTS_ALLOWED = [
  'src/host/index.ts -> src/core/private-umask.ts',
  'src/host/start.ts -> src/core/db/warm-start.ts',
  'src/host/start.ts -> src/core/private-umask.ts',
  'src/main/index.ts -> src/core/private-umask.ts',
  'src/mcp/stdio-main.ts -> src/core/private-umask.ts',
];

describe('import direction (docs/architecture.md)', () => {
  it('sees the source tree', () => {
    // A broken pattern would make every rule below pass vacuously.
    expect(all.length).toBeGreaterThan(300);
    expect(all).toContainEqual({ from: 'src/core/app/core.ts', to: 'src/core/app/handlers.ts' });
  });

  it('src/shared imports nothing outside itself', () => {
    expect(show(all.filter((e) => inDir(e.from, 'src/shared') && !inDir(e.to, 'src/shared')))).toEqual([]);
  });

  it('the core never imports a shell, bench/ or e2e/', () => {
    expect(show(all.filter((e) => inDir(e.from, 'src/core') && !inDir(e.to, 'src/core') && !inDir(e.to, 'src/shared')))).toEqual(
      [],
    );
  });

  it('the renderer and the preload reach the core only through src/shared', () => {
    // A renderer test may drive a store against the real core (the knowledge store's does): tests ship in no bundle.
    const page = all.filter((e) => !isTest(e.from) && (inDir(e.from, 'src/renderer') || inDir(e.from, 'src/preload')));
    const home = (path: string) => path.split('/').slice(0, 2).join('/'); // src/renderer or src/preload
    expect(show(page.filter((e) => !inDir(e.to, 'src/shared') && !inDir(e.to, home(e.from))))).toEqual([]);
  });

  it('domains and mechanisms never import the composition root', () => {
    const below = (p: string) => coreArea(p) === 'domain' || coreArea(p) === 'mechanism';
    expect(show(all.filter((e) => !isTest(e.from) && below(e.from) && isRoot(e.to)))).toEqual([]);
  });

  it('mechanisms never import a domain', () => {
    expect(show(all.filter((e) => !isTest(e.from) && coreArea(e.from) === 'mechanism' && coreArea(e.to) === 'domain'))).toEqual([]);
  });

  it('the folders of src/core import each other one way: no cycle', () => {
    const graph = folderGraph(all);
    // A graph without these arrows would pass vacuously.
    expect(graph.get('chat')?.has('memories')).toBe(true);
    expect(graph.get('memories')?.has('db')).toBe(true);
    expect(cycles(graph).map((cycle) => explain(graph, cycle))).toEqual([]);
  });

  it('no file imports the index of a folder above its own', () => {
    const upward = all.filter((e) => {
      // Fixtures build whole cores (testing/core.ts); they ship in no bundle.
      if (isTest(e.from) || isFixture(e.from) || !inDir(e.from, 'src/core') || !e.to.endsWith('/index.ts')) return false;
      return inDir(dirname(e.from), dirname(e.to));
    });
    expect(show(upward)).toEqual([]);
  });

  it('shells reach the core only through src/core/index.ts', () => {
    const shells = ['src/main', 'src/host', 'src/mcp', 'src/preload'];
    const reached = all.filter(
      (e) => !isTest(e.from) && shells.some((s) => inDir(e.from, s)) && inDir(e.to, 'src/core') && e.to !== 'src/core/index.ts',
    );
    expect(show(reached).sort()).toEqual(SHELL_CORE_IMPORTS_ALLOWED);
  });

  it('fixtures are imported only by tests, other fixtures and nothing shipped', () => {
    expect(show(all.filter((e) => isFixture(e.to) && !isFixture(e.from) && !isTest(e.from)))).toEqual([]);
  });
});
