// The settings, stated once: each value's schema, the stored settings
// (`settingsSchema`), the patch `settings.set` takes and the view the UI reads
// are all built from the same field schemas below, and their types derived.
// The page's settings forms check with these too (src/renderer/features/settings/validate.ts).

import { z } from 'zod';
import { EMBEDDING_PROVIDERS } from './enums';
import { noArgs } from './contract/fields';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** A server's base URL: http(s), no credentials in it; a trailing slash is dropped. */
const baseUrl = z
  .string()
  .trim()
  .max(500)
  .superRefine((s, ctx) => {
    const problem = baseUrlProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((s) => s.replace(/\/+$/, ''));

function baseUrlProblem(s: string): string | null {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return 'not a URL: write it in full, e.g. http://127.0.0.1:11434/v1';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http(s) URL such as http://127.0.0.1:11434/v1';
  if (u.username || u.password) return 'leave the user name and password out of the URL; use the API key field';
  return null;
}

const modelName = z.string().trim().min(1, 'must not be empty').max(200);
const apiKey = z.string().trim().min(1, 'must not be empty; send null to remove the key').max(1000);
const provider = z.enum(EMBEDDING_PROVIDERS);
const dimensions = z.number().int('a whole number').min(1, 'at least 1').max(1536, 'at most 1536, the size the database holds');
const reviewEvery = z.number().int('a whole number').min(1, 'at least 1').max(1000, 'at most 1000');
const contextBudgetTokens = z.number().int('a whole number').min(2000, 'at least 2000 tokens').max(2_000_000, 'at most 2,000,000 tokens');
const maxIngestBytes = z
  .number()
  .int()
  .min(1024, 'at least 1 KB')
  .max(2 * 1024 ** 3, 'at most 2 GB');
const backupsKeep = z.number().int('a whole number').min(1, 'at least 1').max(100, 'at most 100');
const trashDays = z.number().int('a whole number').min(1, 'at least 1 day').max(3650, 'at most 3650 days');
/** The workspace folder; the core also requires an absolute path on its own platform (src/core/settings/schema.ts). */
const workspaceDir = z.string().trim().min(1).max(1000);
const theme = z.enum(THEMES);

/** Each setting's own check, for a form field that checks one value before saving. */
export const settingFields = {
  baseUrl,
  modelName,
  apiKey,
  provider,
  dimensions,
  reviewEvery,
  contextBudgetTokens,
  maxIngestBytes,
  backupsKeep,
  trashDays,
  workspaceDir,
  theme,
};

/** The non-secret settings as stored (keys live in the secret store); a stored value that no longer fits falls back to the default. */
export const settingsSchema = z.object({
  chat: z.object({ baseUrl: z.string().nullable(), model: z.string().nullable() }),
  embeddings: z.object({
    provider,
    /** null: the provider's default (OpenAI's public API); required for `compatible`. */
    baseUrl: z.string().nullable(),
    model: z.string(),
    dimensions,
  }),
  reviewEvery,
  contextBudgetTokens,
  workspaceDir: z.string().nullable(),
  maxIngestBytes,
  /** Each commit waits until it is on disk (docs/durability.md); off: at most the last second can be lost in an OS crash. */
  durableCommits: z.boolean(),
  /** Backups kept in <dataDir>/backups, newest first (default 7; docs/data-safety.md). */
  backupsKeep,
  /** Days a deleted item stays in the trash before the daily purge removes it (default 30; docs/trash.md). */
  trashDays,
  /** Recall may ask the chat model to rewrite a question into search queries (docs/ranking.md, "Model help"); off by default. */
  recallRewrite: z.boolean(),
  /** The first-launch welcome was dismissed (kept with the data, so it shows once per data folder; docs/ui.md). */
  welcomeDismissed: z.boolean(),
  /** The colour theme: follow the system, or always light or dark (kept with the data, so every window and launch shows it). */
  theme,
});

/** The non-secret settings as the core uses them. */
export type Settings = z.output<typeof settingsSchema>;

/** Whether a key is kept; the key itself never goes back to the page. */
type KeyState = 'set' | 'not set';

/** Settings as the UI reads them: secrets only as set / not set. */
export type SettingsView = Omit<Settings, 'chat' | 'embeddings'> & {
  chat: Settings['chat'] & { apiKey: KeyState };
  embeddings: Settings['embeddings'] & { apiKey: KeyState };
  /** Where API keys are kept on this machine, in words (differs by platform and door). */
  keyStorage: string;
};

/** What `settings.set` takes: any of the settings, each checked; `null` puts a value back to its default. */
export const settingsPatch = z
  .object({
    chat: z
      .object({
        baseUrl: baseUrl.nullable().optional(),
        model: modelName.nullable().optional(),
        apiKey: apiKey.nullable().optional(),
      })
      .strict()
      .optional(),
    embeddings: z
      .object({
        provider,
        baseUrl: baseUrl.nullable().optional(),
        model: modelName.nullable().optional(),
        dimensions: dimensions.nullable().optional(),
        apiKey: apiKey.nullable().optional(),
      })
      .strict()
      .optional(),
    reviewEvery: reviewEvery.optional(),
    contextBudgetTokens: contextBudgetTokens.optional(),
    workspaceDir: workspaceDir.nullable().optional(),
    maxIngestBytes: maxIngestBytes.optional(),
    durableCommits: z.boolean().optional(),
    backupsKeep: backupsKeep.optional(),
    trashDays: trashDays.optional(),
    recallRewrite: z.boolean().optional(),
    welcomeDismissed: z.boolean().optional(),
    theme: theme.optional(),
  })
  .strict();

export type SettingsPatch = z.input<typeof settingsPatch>;

/**
 * "Test connection" on the values in the form, before they are saved. No key field means
 * "the stored key", which is used only if it was entered for this base URL (docs/security.md).
 */
export const testConnectionArgs = z
  .object({
    which: z.enum(['chat', 'embeddings']),
    chat: z
      .object({ baseUrl: baseUrl.nullable(), model: modelName.nullable(), apiKey: apiKey.optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((a) => a.which === 'chat' || a.chat === undefined, { message: 'chat values go with which: "chat"', path: ['chat'] });

export const settingsArgs = {
  'settings.get': noArgs,
  'settings.set': settingsPatch,
  /** One real request with the saved settings; a failure is an answer ({ok: false}), not an error. */
  'settings.testConnection': testConnectionArgs,
};
