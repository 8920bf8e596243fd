// "Copy my data and switch" (Settings → Data; docs/server-mode.md): every
// persona of this computer goes into the server through the same .hearth
// export and import a person uses by hand, so the copy and a file carry
// exactly the same things. All or nothing: each copied persona is kept hidden
// until the last one is in, and a copy that fails removes what it wrote. Only
// then is the server saved, for the next start; this computer's data is only read.
import { rm } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import type { DatabaseProbe } from '../../shared/types';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { findMigrationsDir, migrate, readMigrations } from '../db/migrate';
import { connectionError, ServerDb } from '../db/server';
import { EventBus } from '../events';
import { exportPersona } from '../portable/export';
import { importHidden } from '../portable/import';
import { removeImportingPersona } from '../portable/unfinished';
import { listPersonas } from '../personas/store';
import { dropEmptyMain, ensureMainPersona, hidePersona, revealCopiedPersona } from '../personas/transfer';
import { copySettings } from '../settings/copy';
import { probeServer } from './probe';
import { saveUrl } from './saved';

export interface CopiedPersona {
  from: string;
  to: string;
  id: string;
}

/** A Hearth on the server with nothing in it yet: only its empty "main" (a first start, or a copy that failed). */
async function holdsNothing(q: Queryable): Promise<boolean> {
  const personas = await listPersonas(q);
  if (personas.length !== 1 || personas[0]!.id !== 'main') return false;
  return Object.values(personas[0]!.counts).every((n) => n === 0);
}

// The start-up (src/core/index.ts) puts "main" back from here after removing unfinished imports.
export { ensureMainPersona };

/**
 * Copies every persona into the server at `url` and, when all are in, saves
 * the URL for the next start. Throws an AppError saying what failed; the
 * server is then left as it was (a fresh database keeps Hearth's empty schema).
 */
export async function copyToServer(
  ctx: CoreContext,
  url: string,
  emit: (p: { stage: 'export' | 'import'; persona: string; index: number; count: number; done: number; total: number }) => void,
): Promise<{ server: string; personas: CopiedPersona[] }> {
  if (!ctx.db.local) throw new AppError('conflict', 'Hearth already keeps its data on a PostgreSQL server; there is no local data open to copy.');
  const probe: DatabaseProbe = await probeServer(url);
  if (!probe.copy.ok) throw new AppError('conflict', probe.copy.reason);
  const server = await ServerDb.open(url, { source: 'settings' });
  // The import writes through a context of its own: the server's database, and events nobody on this computer listens to.
  const target: CoreContext = { ...ctx, db: server, events: new EventBus(), wakeJobs: () => undefined };
  const copied: CopiedPersona[] = [];
  let fresh = false;
  try {
    try {
      await migrate(server, readMigrations(findMigrationsDir()));
      await server.refreshFeatures();
    } catch (e) {
      throw e instanceof AppError ? e : connectionError(e, server.address);
    }
    fresh = probe.contents.kind === 'empty' || (await holdsNothing(server));
    if (fresh) {
      await copySettings(ctx.db, server);
      // The empty "main" the first migration made gives way to this computer's own (same id, same name).
      await dropEmptyMain(server);
    }
    const personas = await listPersonas(ctx.db);
    const taken = new Set<string>();
    for (const [i, p] of personas.entries()) {
      const at = { persona: p.name, index: i + 1, count: personas.length };
      const file = await exportPersona(ctx, p.id, (done, total) => emit({ stage: 'export', ...at, done, total }));
      try {
        // Left hidden until every persona is in: other devices never see half a copy, even if the
        // server goes away between two personas (migration 0017's flag).
        const imported = await importHidden(target, file.path, (q) => emit({ stage: 'import', ...at, done: q.done, total: q.total }));
        copied.push({ from: p.name, to: p.name, id: imported.id });
      } finally {
        await rm(file.path, { force: true });
      }
    }
    await server.transaction(async (tx) => {
      for (const c of copied) {
        const name = await revealCopiedPersona(tx, c.id, c.from, taken);
        // Another Hearth starting on this server meanwhile removes hidden personas as unfinished imports.
        if (name === null) throw new AppError('conflict', `The copy of "${c.from}" was removed from the server while copying (did another Hearth start on it?). Try again.`);
        c.to = name;
        taken.add(name.toLowerCase());
      }
    });
    await saveUrl(ctx.secrets, url);
    return { server: server.server, personas: copied };
  } catch (e) {
    await undo(server, copied, fresh);
    throw e;
  } finally {
    await server.close().catch(() => undefined);
  }
}

/**
 * Removes what this copy wrote: its personas (hidden, then deleted in short
 * statements), and on a fresh database the empty "main" comes back. If the
 * server cannot be reached now, the hidden personas are removed by the next
 * Hearth that starts on it (portable/unfinished.ts).
 */
async function undo(server: ServerDb, copied: CopiedPersona[], fresh: boolean): Promise<void> {
  try {
    for (const c of copied) {
      await hidePersona(server, c.id);
      await removeImportingPersona(server, c.id);
    }
    if (fresh) await ensureMainPersona(server);
  } catch (e) {
    console.warn(`Hearth: the half-made copy on ${server.server} could not be removed now (${(e as Error).message}); the next Hearth to start on it removes it.`);
  }
}
