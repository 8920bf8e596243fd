// Messages between the core thread and the local embedding worker.

export interface LocalEmbedRequest {
  id: number;
  texts: string[];
  /** A recall query: the worker runs it before any batch work waiting in its line. */
  urgent: boolean;
}

export type LocalEmbedResponse =
  | { id: number; ok: true; vectors: Float32Array[]; loadMs: number | null }
  | { id: number; ok: false; message: string };
