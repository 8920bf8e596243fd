import { AppError } from '../../shared/errors';
import { handler } from '../method';
import { testChat, testEmbeddings } from './connection';
import { applyEmbeddingSettings } from './apply';
import { chatKeyOwner, embeddingsKeyOwner } from '../../shared/key-owner';
import { rebindKey } from './keys';
import { mergeSettings } from './merge';
import { settingsArgs } from '../../shared/settings';
import { settingsPatch, testConnectionArgs } from './schema';
import { readSettings, writeSettings } from './store';
import { SECRET_CHAT_KEY, SECRET_EMBEDDINGS_KEY } from './types';
import { settingsView } from './view';

export const settingsHandlers = {
  'settings.get': handler(settingsArgs['settings.get'], async (_args, ctx) => settingsView(ctx)),

  'settings.testConnection': handler(testConnectionArgs, (args, ctx) =>
    args.which === 'chat' ? testChat(ctx, args.chat) : testEmbeddings(ctx),
  ),

  'settings.set': handler(settingsPatch, async (patch, ctx) => {
    // Validate the whole patch before writing any of it.
    const before = await readSettings(ctx);
    const next = mergeSettings(before, patch);
    if (!ctx.db.local && next.durableCommits !== undefined && next.durableCommits !== before.durableCommits) {
      // Commits on a server are as durable as the server is configured (synchronous_commit, its disks).
      throw new AppError(
        'invalid_args',
        'Durable commits is a setting of the database on this computer. Hearth keeps its data on a PostgreSQL server, whose own durability settings (synchronous_commit) apply.',
      );
    }
    const after = { ...before, ...next };
    await ctx.db.transaction((tx) => writeSettings(tx, next));
    // A key follows no URL change: kept keys are checked against their server on every read too.
    await rebindKey(ctx.secrets, SECRET_CHAT_KEY, patch.chat?.apiKey, chatKeyOwner(before.chat), chatKeyOwner(after.chat));
    await rebindKey(
      ctx.secrets,
      SECRET_EMBEDDINGS_KEY,
      patch.embeddings?.apiKey,
      embeddingsKeyOwner(before.embeddings),
      embeddingsKeyOwner(after.embeddings),
    );
    if (patch.embeddings) await applyEmbeddingSettings(ctx);
    if (next.durableCommits !== undefined) await ctx.db.local?.setDurableCommits(next.durableCommits);
    ctx.events.emit('settings.changed', {});
    return settingsView(ctx);
  }),
};
