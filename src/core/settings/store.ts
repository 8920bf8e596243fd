import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import type { EmbeddingConfig } from '../providers/embeddings/config';
import type { ChatConfig } from '../providers/llm/config';
import { stored } from './schema';
import { chatKey, embeddingsKey } from './keys';
import { DEFAULT_SETTINGS, type Settings } from './types';

type Key = keyof Settings;

/** The settings in effect: stored values over the defaults. */
export async function readSettings(ctx: Pick<CoreContext, 'db'>): Promise<Settings> {
  const { rows } = await ctx.db.query<{ key: string; value: unknown }>('SELECT key, value FROM settings');
  const out: Settings = structuredClone(DEFAULT_SETTINGS);
  for (const { key, value } of rows) {
    if (!(key in stored)) continue; // a setting of a newer or older version: not ours to read
    const parsed = stored[key as Key].safeParse(value);
    if (!parsed.success) {
      console.warn(`settings: stored value of ${key} is not valid any more; using the default (${parsed.error.message})`);
      continue;
    }
    (out as unknown as Record<string, unknown>)[key] = parsed.data;
  }
  return out;
}

/** Stores the given keys (the others keep their stored value). */
export async function writeSettings(q: Queryable, values: Partial<Settings>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await q.query(
      `INSERT INTO settings (key, value) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [key, JSON.stringify(value)],
    );
  }
}

/** The chat model's configuration, with the key only while it belongs to this server. */
export async function chatConfig(ctx: Pick<CoreContext, 'db' | 'secrets'>): Promise<ChatConfig> {
  const s = await readSettings(ctx);
  return { ...s.chat, apiKey: await chatKey(ctx.secrets, s) };
}

export async function embeddingConfig(
  ctx: Pick<CoreContext, 'db' | 'secrets'>,
): Promise<{ config: EmbeddingConfig; apiKey: string | null }> {
  const s = await readSettings(ctx);
  return { config: s.embeddings, apiKey: await embeddingsKey(ctx.secrets, s) };
}
