// Messages between the core thread and the database worker.
import type { CompiledWasm } from './pglite-wasm';

export type DbRequest =
  | {
      id: number;
      op: 'open';
      dataDir: string | null;
      durableCommits: boolean;
      loadFrom?: Uint8Array;
      /** PGlite's postgres WebAssembly, compiled once by the core thread (pglite-wasm.ts). */
      wasmModule?: CompiledWasm;
    }
  | { id: number; op: 'durability'; durableCommits: boolean }
  | { id: number; op: 'syncCounts' }
  | { id: number; op: 'query'; sql: string; params: unknown[]; /** Bytes a `COPY … FROM '/dev/blob'` reads. */ blob?: Uint8Array }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'dump'; compression: 'gzip' | 'none' }
  | { id: number; op: 'close' };

export interface DbQueryResult<T = Record<string, unknown>> {
  rows: T[];
  affectedRows: number;
  /**
   * How long the statement ran in the database, leaving out the time it waited
   * behind other calls for the one connection (absent where nobody measured).
   */
  ms?: number;
  /** What a `COPY … TO '/dev/blob'` wrote (PGlite only). */
  blob?: Uint8Array;
}

export interface DbErrorShape {
  message: string;
  /** Postgres SQLSTATE, e.g. 23505 for a unique violation. */
  sqlState?: string;
  detail?: string;
  hint?: string;
  /**
   * Postgres' backend ended (a PANIC or FATAL: PGlite's WebAssembly aborted);
   * the instance answers nothing more and must be opened afresh
   * (docs/durability.md, "After a full disk").
   */
  stopped?: boolean;
}

export type DbResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: DbErrorShape };
