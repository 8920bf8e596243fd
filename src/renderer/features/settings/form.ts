import type { SettingsPatch, SettingsView as Settings } from '../../../shared/api';

// The settings form's fields as typed text, and the patch they become.

export type Provider = Settings['embeddings']['provider'];

export interface Form {
  chatBaseUrl: string;
  chatModel: string;
  chatKey: string;
  provider: Provider;
  embBaseUrl: string;
  embModel: string;
  embDimensions: string;
  embKey: string;
  reviewEvery: string;
  contextBudget: string;
  workspaceDir: string;
}

export function toForm(s: Settings): Form {
  return {
    chatBaseUrl: s.chat.baseUrl ?? '',
    chatModel: s.chat.model ?? '',
    chatKey: '',
    provider: s.embeddings.provider,
    embBaseUrl: s.embeddings.baseUrl ?? '',
    embModel: s.embeddings.model,
    embDimensions: String(s.embeddings.dimensions),
    embKey: '',
    reviewEvery: String(s.reviewEvery),
    contextBudget: String(s.contextBudgetTokens),
    workspaceDir: s.workspaceDir ?? '',
  };
}

/** Switching provider starts from that provider's defaults (or what is stored, when switching back). */
export function switchProvider(f: Form, p: Provider, s: Settings): Form {
  if (p === s.embeddings.provider) {
    const stored = toForm(s);
    return { ...f, provider: p, embBaseUrl: stored.embBaseUrl, embModel: stored.embModel, embDimensions: stored.embDimensions };
  }
  if (p === 'openai') return { ...f, provider: p, embBaseUrl: '', embModel: 'text-embedding-3-small', embDimensions: '1536' };
  return { ...f, provider: p, embBaseUrl: '', embModel: '', embDimensions: '' };
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

export function toPatch(f: Form): SettingsPatch {
  const patch: SettingsPatch = {
    chat: { baseUrl: orNull(f.chatBaseUrl), model: orNull(f.chatModel) },
    embeddings:
      f.provider === 'local'
        ? { provider: 'local' }
        : {
            provider: f.provider,
            baseUrl: f.provider === 'compatible' ? orNull(f.embBaseUrl) : null,
            model: orNull(f.embModel),
            // OpenAI is always asked for 1536 dimensions (the database's size): only a compatible server has a choice.
            ...(f.provider === 'compatible' ? { dimensions: f.embDimensions.trim() ? Number(f.embDimensions) : null } : {}),
          },
    reviewEvery: Number(f.reviewEvery),
    contextBudgetTokens: Number(f.contextBudget),
    workspaceDir: orNull(f.workspaceDir),
  };
  // A key is sent only when the user typed one; an empty field never erases it.
  if (f.chatKey) patch.chat = { ...patch.chat, apiKey: f.chatKey };
  if (f.embKey && patch.embeddings) patch.embeddings = { ...patch.embeddings, apiKey: f.embKey };
  return patch;
}

