import { handler } from '../method';
import { noArgs } from '../schemas';

export const APP_VERSION = '0.1.0';

export const infoHandlers = {
  'app.info': handler(noArgs, async (_args, ctx) => ({
    version: APP_VERSION,
    dataDir: ctx.dataDir ?? ':memory:',
    embeddingModel: ctx.embedder.model(),
    notices: [...ctx.notices],
  })),
};
