// createCore: the steps of start-up in order — the data folder and its
// secrets, the database (app/open-data.ts), the context and its background
// work (app/services.ts), the checks and idle care (app/upkeep.ts) — and the
// core each door is given, closing in the reverse order.
import { resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import type { ResultOf } from '../../shared/api';
import { dispatch } from '../dispatch';
import { EventBus } from '../events';
import { uploadSink } from '../knowledge/upload';
import { mcpDoors } from '../mcp/doors';
import { importSink } from '../portable/upload';
import { handlers } from './handlers';
import { openData, openSecrets, prepareDataDir } from './open-data';
import type { Core, CoreOptions } from './options';
import { startServices } from './services';
import { startUpkeep } from './upkeep';

export async function createCore(options: CoreOptions): Promise<Core> {
  const dataDir = options.dataDir ? resolve(options.dataDir) : null;
  const notices: string[] = options.notices ?? [];
  const events = new EventBus();
  if (dataDir) prepareDataDir(dataDir);
  // Before the database: the server chosen in Settings is kept with the secrets (server-switch/saved.ts).
  const secrets = openSecrets(options, dataDir, notices, events);
  const opened = await openData(options, dataDir, secrets, notices);
  let closed = false;
  const isClosed = () => closed;
  const services = await startServices(options, opened, { dataDir, secrets, notices, events, isClosed }).catch((e: unknown) => {
    opened.lock?.release();
    throw e;
  });
  const { ctx } = services;
  const upkeep = startUpkeep(ctx, options, isClosed);
  const answer = async (method: string, args: unknown, meta?: Parameters<Core['dispatch']>[2]) => {
    // Every call waits for the check of what the first view reads (docs/startup.md).
    await upkeep.firstReadsChecked;
    return dispatch(handlers, ctx, method, args, meta);
  };

  return {
    handlers,
    events,
    ctx,
    startupChecked: upkeep.startupChecked,
    dispatch: answer,
    async call(method, args, meta) {
      const res = await answer(method, args, meta);
      if (!res.ok) throw AppError.from(res.error);
      return res.data as ResultOf<typeof method>;
    },
    uploads: uploadSink(ctx),
    imports: importSink(ctx),
    mcp: mcpDoors({ ctx, dispatch: answer }),
    async close() {
      if (closed) return;
      closed = true;
      // A check under way finishes before the database closes.
      await upkeep.settle();
      try {
        await services.stopWork();
        await upkeep.stop();
        await services.closeDatabase();
      } finally {
        opened.lock?.release();
      }
    },
  };
}
