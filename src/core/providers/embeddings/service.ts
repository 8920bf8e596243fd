import { AppError } from '../../../shared/errors';
import { EMBEDDING_DEFAULTS, type EmbeddingConfig, modelTag } from './config';
import { createEmbeddingProvider } from './create';
import type { EmbeddingProvider } from './types';
import { checkLocality, type ContentScope } from '../locality';

export interface EmbeddingServiceOptions {
  /** Per request to a remote server during background work. */
  timeoutMs: number;
  /** A recall query: short, because recall falls back to text-only. */
  queryTimeoutMs: number;
  /**
   * A recall query that must first start the local model (worker start plus
   * ~0.2–0.5 s load, more on a busy machine). Longer than queryTimeoutMs so the
   * first recall after launch is not needlessly text-only; afterwards the
   * short timeout applies.
   */
  firstLoadTimeoutMs: number;
  /**
   * The database stores no vectors (a server without pgvector,
   * docs/server-mode.md): queries are not embedded, so recall and the memory
   * review rank by text alone.
   */
  textOnly?: boolean;
}

export const DEFAULT_EMBEDDING_SERVICE_OPTIONS: EmbeddingServiceOptions = {
  timeoutMs: 60_000,
  queryTimeoutMs: 1_500,
  firstLoadTimeoutMs: 10_000,
};

/** The embedding provider in effect; swapped when the settings change. */
export class EmbeddingService {
  private provider: EmbeddingProvider;
  private config: EmbeddingConfig = EMBEDDING_DEFAULTS.local!;
  private apiKey: string | null = null;
  private closed = false;

  constructor(private options: EmbeddingServiceOptions) {
    this.provider = createEmbeddingProvider(this.config, null, options);
  }

  /** The tag of the current model: only vectors with this tag are compared (docs/memory-model.md). */
  model(): string {
    return this.provider.model;
  }

  current(scope: ContentScope): EmbeddingProvider {
    if (this.closed) throw new AppError('cancelled', 'Hearth is closing.');
    checkLocality(scope, 'embeddings', this.provider.where, this.provider.where === null);
    return this.provider;
  }

  /**
   * Switches provider when its settings or key changed. Tells whether anything
   * changed, and whether the model (the vector tag) did.
   */
  async configure(config: EmbeddingConfig, apiKey: string | null): Promise<{ changed: boolean; modelChanged: boolean }> {
    const same = JSON.stringify(config) === JSON.stringify(this.config) && apiKey === this.apiKey;
    if (same || this.closed) return { changed: false, modelChanged: false };
    const before = this.provider.model;
    const old = this.provider;
    this.provider = createEmbeddingProvider(config, apiKey, this.options);
    this.config = { ...config };
    this.apiKey = apiKey;
    // Work still running on the old provider fails and is retried on the new one.
    await old.close();
    return { changed: true, modelChanged: modelTag(config) !== before };
  }

  /** A recall query's vector (native size), or null so recall falls back to text-only. */
  async embedQuery(text: string, scope: ContentScope, signal?: AbortSignal): Promise<Float32Array | null> {
    if (this.closed || this.options.textOnly) return null;
    const provider = this.provider;
    try {
      checkLocality(scope, 'embeddings', provider.where, provider.where === null);
    } catch (e) {
      console.warn(`recall: query not embedded, text-only (${(e as Error).message})`);
      return null;
    }
    const ms = provider.warm() ? this.options.queryTimeoutMs : this.options.firstLoadTimeoutMs;
    const timeout = AbortSignal.timeout(ms);
    try {
      const [v] = await provider.embed([text], { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, urgent: true });
      return v ?? null;
    } catch (e) {
      const why = timeout.aborted ? `no answer within ${ms} ms` : (e as Error)?.message ?? String(e);
      console.warn(`recall: query not embedded with ${provider.model}, text-only this time (${why})`);
      return null;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.provider.close();
  }
}
