import { knowledgeArgs } from '../../../shared/contract/knowledge';
import { AppError } from '../../../shared/errors';
import { handler } from '../../method';
import { requirePersona } from '../../personas/store';
import { resolveWatchFolder, watchLabel, within } from './folder';
import { deleteWatch, describeWatches, insertWatch, personaWatches } from './store';

export const watchHandlers = {
  'knowledge.watch': handler(knowledgeArgs['knowledge.watch'], async ({ persona, folder }, ctx) => {
    await requirePersona(ctx.db, persona);
    const real = await resolveWatchFolder(folder, ctx.watchDirs);
    const existing = await personaWatches(ctx.db, persona);
    const same = existing.find((w) => w.folder === real);
    if (!same) {
      // One file, one source: a folder inside (or around) a watched one would ingest its files twice.
      const overlap = existing.find((w) => within(w.folder, real) || within(real, w.folder));
      if (overlap) {
        throw new AppError('conflict', `"${real}" overlaps the watched folder "${overlap.folder}": unwatch that one first, or watch only one of them.`);
      }
      const label = watchLabel(real, existing.map((w) => w.label));
      await insertWatch(ctx.db, { persona, folder: real, label }, ctx.now());
    }
    await ctx.watcher.sync();
    ctx.events.emit('knowledge.watch', { persona, folder: real });
    const [described] = (await describeWatches(ctx.db, persona, (f) => ctx.watcher.status(persona, f))).filter((w) => w.folder === real);
    return described!;
  }),

  'knowledge.unwatch': handler(knowledgeArgs['knowledge.unwatch'], async ({ persona, folder }, ctx) => {
    await requirePersona(ctx.db, persona);
    const unwatched = await deleteWatch(ctx.db, persona, folder);
    await ctx.watcher.sync();
    if (unwatched) ctx.events.emit('knowledge.watch', { persona, folder });
    return { unwatched };
  }),

  'knowledge.watches': handler(knowledgeArgs['knowledge.watches'], async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    const watches = await describeWatches(ctx.db, persona, (f) => ctx.watcher.status(persona, f));
    return { watches, allowedDirs: ctx.watchDirs ? [...ctx.watchDirs] : null };
  }),
};
