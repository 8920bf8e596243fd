// The embedding model behind one small interface, so the queue and recall
// never know which provider (built-in, OpenAI, a local server) answers.

export interface EmbedOptions {
  signal?: AbortSignal;
  /** A recall query waiting on a person: served before queued batch work. */
  urgent?: boolean;
}

export interface EmbeddingProvider {
  /** Stored in `embedding_model`; names the provider too, e.g. `local:use-lite-512`. */
  readonly model: string;
  /** Native vector size (≤ 1536); responses of another length are rejected. */
  readonly dimensions: number;
  /** The base URL requests go to; null for the built-in embedder, which sends nothing anywhere. */
  readonly where: string | null;
  /** The most texts one `embed` call may carry. */
  readonly maxBatch: number;
  /** One vector per text, in the order of `texts`. */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Frees what the provider holds (a worker thread, sockets). */
  close(): Promise<void>;
  /** True when the first call would not have to load anything first. */
  warm(): boolean;
}
