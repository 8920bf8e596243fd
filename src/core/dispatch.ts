import type { z } from 'zod';
import type { CallMeta } from '../shared/actor';
import type { Envelope, Method } from '../shared/api';
import { AppError, type ErrorCode } from '../shared/errors';
import type { CoreContext } from './context';
import { DbError } from './db/client';
import { describeDamage, isDamage } from './db/damage';
import { diskFullError, isNoSpaceError, SQLSTATE_DISK_FULL } from './disk-full';
import type { Handlers } from './method';
import { checkText, nulRefused, surrogateNote } from './text-safety';

// Postgres SQLSTATE → app code. The SQL text and parameters stay in the log.
const SQLSTATE_CODES: Record<string, ErrorCode> = {
  '23505': 'conflict',
  '23503': 'not_found',
  '23514': 'invalid_args',
  '23502': 'invalid_args',
  '22P02': 'invalid_args',
  '22001': 'invalid_args',
  '22007': 'invalid_args',
  '22008': 'invalid_args',
  '22000': 'invalid_args',
  '54000': 'invalid_args',
  // A NUL (U+0000) or an untranslatable character that slipped past the checks at the doors.
  '22021': 'invalid_args',
  '22P05': 'invalid_args',
  [SQLSTATE_DISK_FULL]: 'disk_full',
};

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

export function toAppError(e: unknown, method: string): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof DbError) {
    const code = (e.sqlState && SQLSTATE_CODES[e.sqlState]) || 'internal';
    console.error(`[${method}] database error ${e.sqlState ?? ''}: ${e.message}${e.sql ? `\n  sql: ${e.sql}` : ''}`);
    if (code === 'disk_full') return diskFullError();
    const message =
      code === 'conflict'
        ? 'That already exists.'
        : code === 'not_found'
          ? 'What this refers to does not exist.'
          : code === 'invalid_args'
            ? `The database refused the value: ${e.message}`
            : `A database error occurred (${e.sqlState ?? 'unknown'}).`;
    return new AppError(code, message);
  }
  if (isNoSpaceError(e)) {
    console.error(`[${method}] no space left:`, e);
    return diskFullError();
  }
  console.error(`[${method}] unexpected error:`, e);
  return new AppError('internal', `Unexpected error in ${method}: ${(e as Error)?.message ?? String(e)}`);
}

/**
 * The single entry point for every door: validates the arguments, runs the
 * handler, and never throws — every outcome is an envelope. `meta` comes from
 * the door itself (IPC and the browser host: 'user'; MCP: 'mcp:<client>'),
 * never from the arguments a page or client sent.
 */
export async function dispatch(
  handlers: Handlers,
  ctx: CoreContext,
  method: string,
  args: unknown,
  meta: CallMeta = {},
): Promise<Envelope<unknown>> {
  if (!Object.prototype.hasOwnProperty.call(handlers, method)) {
    return { ok: false, error: { code: 'unknown_method', message: `Unknown method: ${String(method).slice(0, 80)}` } };
  }
  const def = handlers[method as Method];
  const text = checkText(args ?? {}, { nulAsSpace: def.readsTextOnly === true });
  if (text.nulAt !== null) return { ok: false, error: nulRefused(text.nulAt).toJSON() };
  const parsed = def.schema.safeParse(text.value);
  if (!parsed.success) {
    // The issues by path too, so a form can put each message next to its field.
    const issues = parsed.error.issues.slice(0, 20).map((i) => ({ path: i.path.join('.'), message: i.message }));
    return { ok: false, error: { code: 'invalid_args', message: `Invalid arguments for ${method}: ${describeIssues(parsed.error)}`, details: { issues } } };
  }
  try {
    const data = await def.run(parsed.data as never, ctx, { actor: meta.actor ?? 'user' });
    return text.replaced.length ? { ok: true, data, notes: [surrogateNote(text.replaced)] } : { ok: true, data };
  } catch (e) {
    // A damaged page: name the table and the newest backup rather than "a database error (XX001)".
    const damage = isDamage(e) && ctx.dataDir && ctx.db.local ? await describeDamage(ctx.db, e, ctx.dataDir, `answer ${method}`, true).catch(() => null) : null;
    return { ok: false, error: (damage ?? toAppError(e, method)).toJSON() };
  }
}
