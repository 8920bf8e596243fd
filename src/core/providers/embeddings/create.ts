import type { EmbeddingConfig } from './config';
import { LocalEmbedder } from './local';
import { OpenAiEmbedder } from './openai';
import type { EmbeddingProvider } from './types';

export interface ProviderOptions {
  /** Per request to a remote server. */
  timeoutMs: number;
}

export function createEmbeddingProvider(config: EmbeddingConfig, apiKey: string | null, options: ProviderOptions): EmbeddingProvider {
  if (config.provider === 'local') return new LocalEmbedder();
  return new OpenAiEmbedder({ config, apiKey, timeoutMs: options.timeoutMs });
}
