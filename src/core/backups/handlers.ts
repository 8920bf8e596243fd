import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { checkIntegrity } from '../db/integrity';
import { handler } from '../method';
import { applyEmbeddingSettings } from '../settings/apply';
import { appArgs } from '../../shared/contract/app';

/** On a PostgreSQL server, backups and integrity checks are the server's (docs/server-mode.md). */
const SERVER_BACKUPS =
  'Hearth keeps its data on a PostgreSQL server: backups, restores and integrity checks are the server\'s own (pg_dump, its backup tools, amcheck there), not Hearth\'s.';

function backupsOf(ctx: CoreContext) {
  if (!ctx.db.local) throw new AppError('not_configured', SERVER_BACKUPS);
  if (!ctx.backups) throw new AppError('not_configured', 'This Hearth keeps its data in memory only: there is nothing to back up.');
  return ctx.backups;
}

export const backupHandlers = {
  'backups.list': handler(appArgs['backups.list'], (_args, ctx) => backupsOf(ctx).list()),

  'backups.create': handler(appArgs['backups.create'], (_args, ctx) => backupsOf(ctx).create('manual')),

  'backups.restore': handler(appArgs['backups.restore'], async ({ id }, ctx) => {
    const out = await backupsOf(ctx).restore(id);
    // The restored database brings its own settings (the embedding model among them).
    await applyEmbeddingSettings(ctx, { backfill: false });
    ctx.events.emit('personas.changed', {});
    return out;
  }),

  'data.checkIntegrity': handler(appArgs['data.checkIntegrity'], (_args, ctx) => {
    if (!ctx.db.local) throw new AppError('not_configured', SERVER_BACKUPS);
    return checkIntegrity(ctx.db);
  }),
};
