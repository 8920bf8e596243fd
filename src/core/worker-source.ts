// A worker thread's code when Hearth runs from source (tests, bench/ and tsx
// scripts): the entry's own .ts files bundled into one plain ES module, the way
// electron-vite bundles it for the built app, and packages left to Node.
//
// Why not load the .ts through tsx's loader inside each worker, as before: on
// Node 20 that starts a loader thread per worker and sends every import through
// it. Starting a database worker cost ~1.1 CPU-s that way against ~0.15 CPU-s
// for the same code as plain JavaScript (docs/testing.md, fifth round), and
// every test core, backup check and restart starts one.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface EsbuildOutput {
  outputFiles: { contents: Uint8Array }[];
}
type BuildSync = (options: Record<string, unknown>) => EsbuildOutput;

/** Bundles made by this process, by entry: each is made once. */
const made = new Map<string, string>();

/**
 * The bundled worker for `entry` (an absolute .ts path) under the project's
 * `node_modules/.cache`: Node resolves the packages it imports from there, as
 * it does for the built app's `out/main`. Named by a hash of its contents, so a
 * changed source gets a new file and two processes writing the same one agree.
 */
export function bundledWorker(entry: string, projectRoot: string): string {
  const known = made.get(entry);
  if (known) return known;
  // A development tool, loaded only on this path: the built app never comes here.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as { buildSync: BuildSync };
  const code = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    sourcemap: 'inline',
    // Stack traces name the .ts lines, as they did under tsx.
    banner: { js: 'process.setSourceMapsEnabled(true);' },
  }).outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const dir = join(projectRoot, 'node_modules', '.cache', 'hearth-workers');
  const file = join(dir, `${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  made.set(entry, file);
  return file;
}
