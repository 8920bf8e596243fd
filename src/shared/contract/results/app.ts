import { z } from 'zod';
import { ERROR_CODES } from '../../errors';
import { count, time } from './common';

/** What app.info says about the running Hearth. */
export const appInfo = z.strictObject({
  version: z.string(),
  storage: z
    .enum(['folder', 'memory'])
    .describe(
      "Whether the data lives in a data folder (`folder`) or only in memory. Never the folder's path: a page " +
        'gets no path of the computer Hearth runs on (docs/security.md); the desktop app opens it with `showDataFolder`.',
    ),
  embeddingModel: z.string(),
  notices: z.array(z.string()),
  database: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('local'), server: z.null(), textOnly: z.literal(false) }),
      z.strictObject({ kind: z.literal('server'), server: z.string(), textOnly: z.boolean() }),
    ])
    .describe(
      "Where the memory is kept: this computer's database, or a PostgreSQL server (named user@host:port/database, " +
        'never with its password). textOnly: the server has no pgvector, so no vectors are stored and recall ranks by text.',
    ),
});

const errorCode = z.enum(ERROR_CODES);
const modelList = z.array(z.string()).nullable();

/** Settings → Test connection: one real request to the saved model, and the server's model list. */
export const connectionTest = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), detail: z.string(), ms: z.number(), models: modelList }),
  z.strictObject({ ok: z.literal(false), code: errorCode, message: z.string(), ms: z.number(), models: modelList }),
]);

const extensionState = z.enum(['installed', 'available', 'missing']);

/** What "Test connection" found on a PostgreSQL server (Settings → Data; docs/server-mode.md). */
export const databaseProbe = z.strictObject({
  server: z.string().describe('user@host:port/database: never the password.'),
  version: z.string().describe('The server\'s version, e.g. "15.8".'),
  vector: extensionState.describe(
    'pgvector: already in the database, installable (Hearth creates it), or missing (text-only).',
  ),
  textSearch: extensionState.describe(
    'pg_textsearch (BM25): present, or missing (Hearth keeps its own term statistics).',
  ),
  contents: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('empty') }),
      // `schema`: the newest migration; `newer`: it has migrations this Hearth does not know.
      z.strictObject({
        kind: z.literal('hearth'),
        schema: z.string(),
        migrations: z.number(),
        personas: z.number(),
        newer: z.boolean(),
      }),
      z.strictObject({ kind: z.literal('other'), tables: z.number() }),
    ])
    .describe('What the database holds now.'),
  copy: z
    .discriminatedUnion('ok', [z.strictObject({ ok: z.literal(true) }), z.strictObject({ ok: z.literal(false), reason: z.string() })])
    .describe('Whether "Copy my data and switch" may go ahead; otherwise why not.'),
});

export const databaseTest = z.union([
  databaseProbe.extend({ ok: z.literal(true) }),
  z.strictObject({ ok: z.literal(false), code: errorCode, message: z.string() }),
]);

/** Where the data is kept now and from the next start (Settings → Data). Never holds a password. */
export const databaseView = z.strictObject({
  active: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('local') }),
      z.strictObject({
        kind: z.literal('server'),
        server: z.string(),
        textOnly: z.boolean(),
        from: z.enum(['start-option', 'settings']),
      }),
    ])
    .describe('In use now. `from`: a start option (--database-url / HEARTH_DATABASE_URL) or the saved setting.'),
  saved: z
    .object({ server: z.string() })
    .nullable()
    .describe(
      'The server saved in Settings (user@host:port/database), used from the next start unless a start option overrides it.',
    ),
  savedFailed: z
    .string()
    .nullable()
    .describe("The saved server could not be used at this start (the reason); this computer's data was opened instead."),
  restartNeeded: z
    .boolean()
    .describe('True when the next start would use other data than now: restart Hearth to switch.'),
});

/** What "Copy my data and switch" did: each local persona and the name it has on the server. */
export const databaseCopyResult = z.strictObject({
  server: z.string(),
  personas: z.array(z.strictObject({ from: z.string(), to: z.string(), id: z.string() })),
  view: databaseView,
});

/** One backup in <dataDir>/backups, as its manifest describes it. */
export const backupInfo = z.strictObject({
  id: z.string(),
  createdAt: time,
  reason: z
    .string()
    .describe('Why it was taken: manual, daily, before-migration, before-persona-delete, before-restore.'),
  bytes: z.number().describe('Size of the archive on disk.'),
  counts: z.strictObject({
    personas: count,
    memories: count,
    knowledgeSources: count,
    knowledgeChunks: count,
    conversations: count,
    messages: count,
  }),
  verified: z.boolean().describe('Opened after writing, counted, and its integrity check passed.'),
  problems: z.array(z.string()),
});

export const integrityResult = z.strictObject({
  ok: z.boolean(),
  checked: z.number(),
  problems: z.array(z.string()),
});
