import type { SecretStore } from '../context';
import { chatKeyOwner, embeddingsKeyOwner } from '../../shared/key-owner';
import { SECRET_CHAT_KEY, SECRET_EMBEDDINGS_KEY, type Settings } from './types';

// An API key belongs to the server it was entered for (docs/security.md): it is
// stored with that server's identity and handed to a provider only while the
// settings still point there. A changed URL or provider forgets it.

/** How a key sits in the secret store: the key and the server it belongs to. */
interface BoundKey {
  key: string;
  for: string;
}

function parse(raw: string | null): BoundKey | null {
  if (raw === null) return null;
  try {
    const v = JSON.parse(raw) as Partial<BoundKey> | null;
    if (v && typeof v.key === 'string' && typeof v.for === 'string') return { key: v.key, for: v.for };
  } catch {
    // Not JSON: a key stored before keys were bound to their server (see adoptUnboundKeys).
  }
  return null;
}

/** The key stored under `name` if it belongs to `owner`, else null. */
export async function readKey(secrets: SecretStore, name: string, owner: string): Promise<string | null> {
  const bound = parse(await secrets.get(name));
  return bound && bound.for === owner ? bound.key : null;
}

export async function storeKey(secrets: SecretStore, name: string, key: string | null, owner: string): Promise<void> {
  await secrets.set(name, key === null ? null : JSON.stringify({ key, for: owner } satisfies BoundKey));
}

/**
 * After a settings change: a newly typed key belongs to the new server; an
 * existing key whose server changed is forgotten.
 */
export async function rebindKey(
  secrets: SecretStore,
  name: string,
  typed: string | null | undefined,
  before: string,
  after: string,
): Promise<void> {
  if (typed !== undefined) await storeKey(secrets, name, typed, after);
  else if (before !== after && (await secrets.get(name)) !== null) await secrets.set(name, null);
}

/**
 * Keys written by a Hearth that did not record their server are bound, once,
 * to the server the settings name at start-up: the one they were being sent to.
 */
export async function adoptUnboundKeys(secrets: SecretStore, settings: Settings): Promise<void> {
  const owners: [string, string][] = [
    [SECRET_CHAT_KEY, chatKeyOwner(settings.chat)],
    [SECRET_EMBEDDINGS_KEY, embeddingsKeyOwner(settings.embeddings)],
  ];
  for (const [name, owner] of owners) {
    const raw = await secrets.get(name);
    if (raw !== null && parse(raw) === null) await storeKey(secrets, name, raw, owner);
  }
}

export const chatKey = (secrets: SecretStore, s: Settings): Promise<string | null> =>
  readKey(secrets, SECRET_CHAT_KEY, chatKeyOwner(s.chat));

export const embeddingsKey = (secrets: SecretStore, s: Settings): Promise<string | null> =>
  readKey(secrets, SECRET_EMBEDDINGS_KEY, embeddingsKeyOwner(s.embeddings));
