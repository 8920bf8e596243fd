// Which server an API key belongs to. The core binds a stored key to this
// identity; the Settings view uses the same function to warn, before saving,
// that a change of server will clear the key. No runtime dependencies.

export const OPENAI_API_URL = 'https://api.openai.com/v1';

/** A URL as requests see it (host lower-cased, default port dropped, no trailing slash); null is OpenAI's. */
function endpoint(url: string | null | undefined): string {
  const raw = url ?? OPENAI_API_URL;
  try {
    return new URL(raw).href.replace(/\/+$/, '');
  } catch {
    return raw;
  }
}

/** The server the chat key is sent to. */
export function chatKeyOwner(chat: { baseUrl: string | null }): string {
  return `chat ${endpoint(chat.baseUrl)}`;
}

/** The provider and server the embeddings key is sent to. */
export function embeddingsKeyOwner(e: { provider: string; baseUrl: string | null }): string {
  return `${e.provider} ${e.provider === 'local' ? '-' : endpoint(e.baseUrl)}`;
}
