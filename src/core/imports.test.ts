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
const MECHANISM_DIRS = new Set(['db', 'jobs', 'providers', 'parse', 'secrets']);
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

  it('fixtures are imported only by tests, other fixtures and nothing shipped', () => {
    expect(show(all.filter((e) => isFixture(e.to) && !isFixture(e.from) && !isTest(e.from)))).toEqual([]);
  });
});
