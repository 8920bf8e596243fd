// PGlite's postgres WebAssembly (~9 MB), compiled once per process and handed
// to every database worker. Left to itself, PGlite reads and compiles it again
// in each new worker thread, and V8's optimised tier is redone each time: a
// database opened after the first (a backup's snapshot check, a restore, the
// restart after a big index build) paid ~1.2 CPU-s for it (docs/testing.md,
// fifth round). A compiled WebAssembly.Module can be posted to any thread of
// the process; each worker still instantiates its own memory and state.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * A compiled WebAssembly.Module. TypeScript declares the WebAssembly API only in
 * its DOM libraries, which the Node side does not load: the little used here is
 * declared below.
 */
export type CompiledWasm = object;
const wasmApi = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> } }).WebAssembly;

let compiled: Promise<CompiledWasm | null> | null = null;

/**
 * The compiled module, or null when it could not be read or compiled here: the
 * worker then lets PGlite load it the way it always does, and any error about a
 * missing or broken file comes from PGlite itself, where it always came from.
 */
export function pgliteWasmModule(): Promise<CompiledWasm | null> {
  compiled ??= compile().catch(() => null);
  return compiled;
}

async function compile(): Promise<CompiledWasm> {
  // The file PGlite itself loads: beside its entry point (its dist/ folder).
  const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  return wasmApi.compile(await readFile(join(dist, 'pglite.wasm')));
}
