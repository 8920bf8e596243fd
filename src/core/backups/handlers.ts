import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { checkIntegrity } from '../db/integrity';
import { handler } from '../method';
import { noArgs } from '../schemas';
import { applyEmbeddingSettings } from '../settings/apply';
import { z } from 'zod';
import { backupId } from './files';

function backupsOf(ctx: CoreContext) {
  if (!ctx.backups) throw new AppError('not_configured', 'This Hearth keeps its data in memory only: there is nothing to back up.');
  return ctx.backups;
}

export const backupHandlers = {
  'backups.list': handler(noArgs, (_args, ctx) => backupsOf(ctx).list()),

  'backups.create': handler(noArgs, (_args, ctx) => backupsOf(ctx).create('manual')),

  'backups.restore': handler(z.object({ id: backupId }).strict(), async ({ id }, ctx) => {
    const out = await backupsOf(ctx).restore(id);
    // The restored database brings its own settings (the embedding model among them).
    await applyEmbeddingSettings(ctx, { backfill: false });
    ctx.events.emit('personas.changed', {});
    return out;
  }),

  'data.checkIntegrity': handler(noArgs, (_args, ctx) => checkIntegrity(ctx.db)),
};
