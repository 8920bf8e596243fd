import { appArgs } from '../../shared/contract/app';
import type { Call } from '../method';
import { AppError } from '../../shared/errors';
import type { DatabaseTest, DatabaseView } from '../../shared/types';
import type { CoreContext } from '../context';
import { handler } from '../method';
import { copyToServer } from './copy';
import { probeServer } from './probe';
import { describeSaved, readSavedUrl, saveUrl } from './saved';
import { parseDatabaseUrl } from '../db/server-url';

/** The contract's URL, also parsed here, so a malformed one is refused with the form it should have (never echoed). */
const url = appArgs['database.test'].shape.url.superRefine((s, c) => {
  try {
    parseDatabaseUrl(s);
  } catch (e) {
    c.addIssue({ code: 'custom', message: (e as Error).message });
  }
});

/** Only the person at this computer chooses where their data lives: never an AI tool over MCP. */
function requireUser(call: Call): void {
  if (call.actor !== 'user') throw new AppError('forbidden', 'Only you, in Hearth\'s own window, can choose where Hearth keeps its data.');
}

export async function databaseView(ctx: CoreContext): Promise<DatabaseView> {
  const saved = await readSavedUrl(ctx.secrets);
  const db = ctx.db;
  const active: DatabaseView['active'] =
    db.server !== null
      ? { kind: 'server', server: db.server, textOnly: !db.features.vector, from: ctx.database.source === 'settings' ? 'settings' : 'start-option' }
      : { kind: 'local' };
  const savedServer = saved ? describeSaved(saved) : null;
  // A start option wins over the saved setting, so only the setting's own change needs a restart.
  const next = ctx.database.source === 'start-option' ? (active.kind === 'server' ? active.server : null) : savedServer;
  const now = active.kind === 'server' ? active.server : null;
  return {
    active,
    saved: savedServer ? { server: savedServer } : null,
    savedFailed: ctx.database.savedFailed,
    restartNeeded: next !== now || (ctx.database.savedFailed !== null && savedServer !== null),
  };
}

/** The cores copying now (one copy at a time per core; keyed by its database, which is the core's own). */
const copying = new WeakSet<object>();

function asAppError(e: unknown): AppError {
  return e instanceof AppError ? e : new AppError('database_server', (e as Error)?.message ?? String(e));
}

export const serverSwitchHandlers = {
  'database.get': handler(appArgs['database.get'], async (_args, ctx) => databaseView(ctx)),

  'database.test': handler(appArgs['database.test'].extend({ url }), async (args, ctx, call): Promise<DatabaseTest> => {
    requireUser(call);
    try {
      return { ok: true, ...(await probeServer(args.url)) };
    } catch (e) {
      const err = asAppError(e);
      return { ok: false, code: err.code, message: err.message };
    }
  }),

  'database.copyAndSwitch': handler(appArgs['database.copyAndSwitch'].extend({ url }), async (args, ctx, call) => {
    requireUser(call);
    if (copying.has(ctx.db)) throw new AppError('busy', 'A copy into a server is already under way.');
    copying.add(ctx.db);
    let last = { persona: '', index: 0, count: 0 };
    try {
      const out = await copyToServer(ctx, args.url, (p) => {
        last = p;
        ctx.events.emit('database.copy', p);
      });
      ctx.events.emit('database.copy', { stage: 'done', persona: '', index: out.personas.length, count: out.personas.length, done: 1, total: 1 });
      return { ...out, view: await databaseView(ctx) };
    } catch (e) {
      ctx.events.emit('database.copy', { stage: 'failed', persona: last.persona, index: last.index, count: last.count, done: 0, total: 1 });
      const err = asAppError(e);
      throw new AppError(err.code, `${err.message} Nothing was switched: Hearth keeps using this computer's data, which the copy did not change.`);
    } finally {
      copying.delete(ctx.db);
    }
  }),

  'database.useLocal': handler(appArgs['database.useLocal'], async (_args, ctx, call) => {
    requireUser(call);
    await saveUrl(ctx.secrets, null);
    ctx.events.emit('settings.changed', {});
    return databaseView(ctx);
  }),
};
