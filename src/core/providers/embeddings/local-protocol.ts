// Messages between the core thread and the local embedding worker.

export interface LocalEmbedRequest {
  id: number;
  texts: string[];
  /** A recall query: the worker runs it before any batch work waiting in its line. */
  urgent: boolean;
  /**
   * A query sent to several threads: one Int32 set to 1 by the thread that
   * starts it; the others answer `skipped` (local-pool.ts).
   */
  claim?: SharedArrayBuffer;
}

export type LocalEmbedResponse =
  | { id: number; ok: true; vectors: Float32Array[]; loadMs: number | null }
  | { id: number; ok: false; skipped: true; loadMs: number | null }
  | { id: number; ok: false; message: string };

/** What a request's caller gets: every answer but a skip. */
export type LocalEmbedAnswer = Exclude<LocalEmbedResponse, { skipped: true }>;
