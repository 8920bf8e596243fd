// Messages between the core thread and the local embedding worker.

export interface LocalEmbedRequest {
  id: number;
  texts: string[];
}

export type LocalEmbedResponse =
  | { id: number; ok: true; vectors: Float32Array[]; loadMs: number | null }
  | { id: number; ok: false; message: string };
