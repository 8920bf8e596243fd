import type OpenAI from 'openai';
import { AppError } from '../../../shared/errors';
import { withRequestSignal } from '../../abort';
import { checkVectors } from './check';
import { type EmbeddingConfig, modelTag, OPENAI_BASE_URL } from './config';
import { loadOpenAi } from '../openai-lib';
import { mapEmbeddingError } from './errors';
import type { EmbeddingProvider, EmbedOptions } from './types';

export interface OpenAiEmbedderOptions {
  config: EmbeddingConfig;
  apiKey: string | null;
  /** Per request; a hung server fails the attempt instead of blocking the queue. */
  timeoutMs: number;
  /** The job queue does the retrying (with backoff); the client should not. */
  maxRetries?: number;
}

/** OpenAI (`text-embedding-3-*` at 1536 dimensions) or any OpenAI-compatible server. */
export class OpenAiEmbedder implements EmbeddingProvider {
  readonly model: string;
  readonly dimensions: number;
  readonly maxBatch: number;
  /** Made at the first request (openai-lib.ts). */
  private client: Promise<OpenAI> | null = null;
  private readonly apiKey: string | null;
  readonly where: string;

  constructor(private options: OpenAiEmbedderOptions) {
    const c = options.config;
    this.model = modelTag(c);
    this.dimensions = c.dimensions;
    this.maxBatch = c.provider === 'openai' ? 128 : 32;
    this.where = c.baseUrl ?? OPENAI_BASE_URL;
    // OpenAI itself needs a key; a local server ignores it but the client insists on one.
    this.apiKey = options.apiKey ?? (c.provider === 'compatible' ? 'not-needed' : null);
  }

  private openAi(apiKey: string): Promise<OpenAI> {
    const { maxRetries, timeoutMs } = this.options;
    this.client ??= loadOpenAi().then(({ default: Client }) => new Client({ baseURL: this.where, apiKey, maxRetries: maxRetries ?? 0, timeout: timeoutMs }));
    return this.client;
  }

  warm(): boolean {
    return true;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (!this.apiKey) {
      throw new AppError('not_configured', 'The OpenAI embeddings provider needs an API key: set it in Settings.');
    }
    const c = this.options.config;
    let data: { index: number; embedding: ArrayLike<number> }[];
    try {
      const client = await this.openAi(this.apiKey);
      const res = await withRequestSignal(options.signal, (signal) => client.embeddings.create(
        {
          model: c.model,
          input: texts,
          // text-embedding-3-* shorten natively to the database's 1536; local servers have one size.
          ...(c.provider === 'openai' && c.model.startsWith('text-embedding-3') ? { dimensions: c.dimensions } : {}),
          // Local servers answer floats whatever they are asked; the client's default base64
          // would then decode a float array as garbage (docs/memory-model.md), so ask for floats there.
          ...(c.provider === 'compatible' ? { encoding_format: 'float' as const } : {}),
        },
        { signal, timeout: this.options.timeoutMs },
      ));
      data = res.data;
    } catch (e) {
      throw mapEmbeddingError(e, this.where, options.signal);
    }
    if (!Array.isArray(data)) {
      throw new AppError('provider_error', `The embedding server at ${this.where} answered without a data list.`);
    }
    // Put results back in order by index; never trust the response order.
    const ordered: ArrayLike<number>[] = new Array(texts.length);
    for (const item of data) {
      const i = item?.index;
      if (!Number.isInteger(i) || i < 0 || i >= texts.length || ordered[i] !== undefined || !Array.isArray(item.embedding)) {
        throw new AppError('embedding_dimension', `The embedding server at ${this.where} answered with a malformed or misplaced vector.`);
      }
      ordered[i] = item.embedding;
    }
    return checkVectors(this.model, this.dimensions, texts.length, data.length === texts.length ? ordered : data.map((d) => d.embedding));
  }

  async close(): Promise<void> {
    // Nothing held: the client's sockets close with their requests.
  }
}
