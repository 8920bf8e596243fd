import { appArgs } from '../../shared/contract/app';
import { handler } from '../method';
import { dismissNotice } from './notices';

export const APP_VERSION = '0.1.0';

export const infoHandlers = {
  'app.info': handler(appArgs['app.info'], async (_args, ctx) => ({
    version: APP_VERSION,
    storage: ctx.dataDir ? ('folder' as const) : ('memory' as const),
    embeddingModel: ctx.embedder.model(),
    notices: [...ctx.notices],
    database: ctx.db.server
      ? { kind: 'server' as const, server: ctx.db.server, textOnly: !ctx.db.features.vector }
      : { kind: 'local' as const, server: null, textOnly: false as const },
  })),
  // A notice already gone (dismissed in another window) is not an error: the list is what counts.
  'app.dismissNotice': handler(appArgs['app.dismissNotice'], async (args, ctx) => {
    dismissNotice(ctx, args.notice);
    return { notices: [...ctx.notices] };
  }),
};
