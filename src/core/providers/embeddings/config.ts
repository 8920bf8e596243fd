// What selects and configures the embedding provider (stored in settings; the
// key lives in the secret store).

import type { EmbeddingProviderKind } from '../../../shared/enums';

export interface EmbeddingConfig {
  provider: EmbeddingProviderKind;
  /** null: the provider's default (OpenAI's public API); required for `compatible`. */
  baseUrl: string | null;
  model: string;
  dimensions: number;
}

export { OPENAI_API_URL as OPENAI_BASE_URL } from '../../../shared/key-owner';
export const LOCAL_MODEL = 'use-lite-512';

export const EMBEDDING_DEFAULTS: Record<EmbeddingProviderKind, EmbeddingConfig | null> = {
  local: { provider: 'local', baseUrl: null, model: LOCAL_MODEL, dimensions: 512 },
  openai: { provider: 'openai', baseUrl: null, model: 'text-embedding-3-small', dimensions: 1536 },
  // No sensible default: the user names the server, the model and its size.
  compatible: null,
};

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The tag stored with every vector. It names the provider, the model and (for
 * a local server) where it runs and its size, so vectors of two different
 * models are never compared with each other.
 */
export function modelTag(c: EmbeddingConfig): string {
  switch (c.provider) {
    case 'local':
      return `local:${LOCAL_MODEL}`;
    case 'openai':
      return `openai:${c.model}`;
    case 'compatible':
      return `compatible:${c.model}@${host(c.baseUrl ?? '')}/${c.dimensions}`;
  }
}
