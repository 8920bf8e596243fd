import { handler } from '../method';
import { noArgs } from '../schemas';
import { applyEmbeddingSettings } from './apply';
import { mergeSettings } from './merge';
import { settingsPatch } from './schema';
import { readSettings, writeSettings } from './store';
import { SECRET_CHAT_KEY, SECRET_EMBEDDINGS_KEY } from './types';
import { settingsView } from './view';

export const settingsHandlers = {
  'settings.get': handler(noArgs, async (_args, ctx) => settingsView(ctx)),

  'settings.set': handler(settingsPatch, async (patch, ctx) => {
    // Validate the whole patch before writing any of it.
    const next = mergeSettings(await readSettings(ctx), patch);
    await ctx.db.transaction((tx) => writeSettings(tx, next));
    if (patch.chat?.apiKey !== undefined) await ctx.secrets.set(SECRET_CHAT_KEY, patch.chat.apiKey);
    if (patch.embeddings?.apiKey !== undefined) await ctx.secrets.set(SECRET_EMBEDDINGS_KEY, patch.embeddings.apiKey);
    if (patch.embeddings) await applyEmbeddingSettings(ctx);
    ctx.events.emit('settings.changed', {});
    return settingsView(ctx);
  }),
};
