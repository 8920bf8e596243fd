import type { SettingsPatch, SettingsView } from '../../../shared/api';
import { chatKeyOwner, embeddingsKeyOwner } from '../../../shared/key-owner';

/**
 * Which stored keys saving this patch would clear: a key belongs to the server
 * (and provider) it was entered for, so pointing elsewhere without typing a
 * new key forgets it. The core applies the same rule when it saves.
 */
export function keysClearedBy(patch: SettingsPatch, s: SettingsView): { chat: boolean; embeddings: boolean } {
  const chat =
    s.chat.apiKey === 'set' &&
    patch.chat?.apiKey === undefined &&
    patch.chat?.baseUrl !== undefined &&
    chatKeyOwner({ baseUrl: patch.chat.baseUrl }) !== chatKeyOwner(s.chat);
  const e = patch.embeddings;
  const nextEmbeddings = e && {
    provider: e.provider,
    // The core merges field by field on the same provider and starts from defaults on another.
    baseUrl: e.baseUrl !== undefined ? e.baseUrl : e.provider === s.embeddings.provider ? s.embeddings.baseUrl : null,
  };
  const embeddings =
    s.embeddings.apiKey === 'set' &&
    !!nextEmbeddings &&
    e?.apiKey === undefined &&
    embeddingsKeyOwner(nextEmbeddings) !== embeddingsKeyOwner(s.embeddings);
  return { chat, embeddings };
}
