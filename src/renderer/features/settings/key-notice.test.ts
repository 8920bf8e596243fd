import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../shared/api';
import { keysClearedBy } from './key-notice';
import { type ChatForm, chatFormSpec } from './sections/chat-form';
import { type EmbeddingsForm, embeddingsFormSpec, switchProvider } from './sections/embeddings-form';

const saved: SettingsView = {
  chat: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', apiKey: 'set' },
  embeddings: { provider: 'compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic', dimensions: 768, apiKey: 'set' },
  reviewEvery: 8,
  contextBudgetTokens: 16000,
  workspaceDir: null,
  maxIngestBytes: 1024 * 1024,
  keyStorage: 'Not encrypted: kept in /home/you/.config/Hearth/secrets.json, a file only your user account can read.',
  durableCommits: false,
  backupsKeep: 7,
  trashDays: 30,
  recallRewrite: false,
  welcomeDismissed: false,
  theme: 'system',
};

/** What the Settings sections would send after the user edits some fields. */
function edited(
  chat: Partial<ChatForm>,
  embeddings: Partial<EmbeddingsForm> = {},
  s: SettingsView = saved,
): ReturnType<typeof chatFormSpec.toPatch> {
  const emb = embeddings.provider ? switchProvider(embeddingsFormSpec.read(s), embeddings.provider, s) : embeddingsFormSpec.read(s);
  return {
    ...chatFormSpec.toPatch({ ...chatFormSpec.read(s), ...chat } as ChatForm, s),
    ...embeddingsFormSpec.toPatch({ ...emb, ...embeddings } as EmbeddingsForm, s),
  };
}

describe('the Settings form warns before saving that a key will be cleared', () => {
  it('warns when the chat URL or the embeddings URL points to another server', () => {
    expect(keysClearedBy(edited({ baseUrl: 'http://10.0.0.5:8080/v1' }), saved)).toEqual({ chat: true, embeddings: false });
    expect(keysClearedBy(edited({ baseUrl: '' }), saved).chat).toBe(true); // empty means OpenAI: another server
    expect(keysClearedBy(edited({}, { baseUrl: 'http://127.0.0.1:9999/v1' }), saved)).toEqual({ chat: false, embeddings: true });
  });

  it('warns when the embeddings provider changes, even to the built-in one', () => {
    expect(keysClearedBy(edited({}, { provider: 'local' }), saved).embeddings).toBe(true);
    expect(keysClearedBy(edited({}, { provider: 'openai' }), saved).embeddings).toBe(true);
  });

  it('stays quiet for the same server written differently, a model change, a new key, or no key stored', () => {
    expect(keysClearedBy(edited({ baseUrl: 'http://127.0.0.1:11434/v1/' }), saved)).toEqual({ chat: false, embeddings: false });
    expect(keysClearedBy(edited({ model: 'qwen2.5' }, { model: 'mxbai' }), saved)).toEqual({ chat: false, embeddings: false });
    expect(keysClearedBy(edited({ baseUrl: 'http://10.0.0.5:8080/v1', key: 'sk-new' }), saved).chat).toBe(false);
    const noKeys = { ...saved, chat: { ...saved.chat, apiKey: 'not set' as const }, embeddings: { ...saved.embeddings, apiKey: 'not set' as const } };
    expect(keysClearedBy(edited({ baseUrl: 'http://10.0.0.5:8080/v1' }, { provider: 'local' }, noKeys), noKeys)).toEqual({ chat: false, embeddings: false });
  });
});
