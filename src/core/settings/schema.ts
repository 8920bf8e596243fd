import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { EMBEDDING_PROVIDERS } from '../../shared/enums';
import { THEMES } from '../../shared/settings';

// Validation of settings as they cross the API (SettingsPatch) and as they
// come back out of the database.

const url = z
  .string()
  .trim()
  .max(500)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL such as http://127.0.0.1:11434/v1 (no credentials in it)')
  .transform((s) => s.replace(/\/+$/, ''));

const modelName = z.string().trim().min(1, 'must not be empty').max(200);
const apiKey = z.string().trim().min(1, 'must not be empty; send null to remove the key').max(1000);

export const provider = z.enum(EMBEDDING_PROVIDERS);
export const dimensions = z.number().int('a whole number').min(1).max(1536, 'at most 1536, the size the database holds');
export const reviewEvery = z.number().int('a whole number').min(1, 'at least 1').max(1000);
export const contextBudgetTokens = z.number().int('a whole number').min(2000, 'at least 2000 tokens').max(2_000_000);
export const maxIngestBytes = z
  .number()
  .int()
  .min(1024, 'at least 1 KB')
  .max(2 * 1024 ** 3, 'at most 2 GB');
export const backupsKeep = z.number().int('a whole number').min(1, 'at least 1').max(100, 'at most 100');
export const trashDays = z.number().int('a whole number').min(1, 'at least 1 day').max(3650, 'at most 3650 days');
export const workspaceDir = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .refine((p) => isAbsolute(p), 'must be an absolute path');

export const settingsPatch = z
  .object({
    chat: z
      .object({
        baseUrl: url.nullable().optional(),
        model: modelName.nullable().optional(),
        apiKey: apiKey.nullable().optional(),
      })
      .strict()
      .optional(),
    embeddings: z
      .object({
        provider,
        baseUrl: url.nullable().optional(),
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
    theme: z.enum(THEMES).optional(),
  })
  .strict();

/**
 * "Test connection" on the values in the form, before they are saved. No key field means
 * "the stored key", which is used only if it was entered for this base URL (docs/security.md).
 */
export const testConnectionArgs = z
  .object({
    which: z.enum(['chat', 'embeddings']),
    chat: z
      .object({ baseUrl: url.nullable(), model: modelName.nullable(), apiKey: apiKey.optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((a) => a.which === 'chat' || a.chat === undefined, { message: 'chat values go with which: "chat"', path: ['chat'] });

export type SettingsPatchInput = z.output<typeof settingsPatch>;

/** How each stored key reads back; a value that no longer fits falls back to the default. */
export const stored = {
  chat: z.object({ baseUrl: z.string().nullable(), model: z.string().nullable() }),
  embeddings: z.object({ provider, baseUrl: z.string().nullable(), model: z.string(), dimensions }),
  reviewEvery,
  contextBudgetTokens,
  workspaceDir: z.string().nullable(),
  maxIngestBytes,
  durableCommits: z.boolean(),
  backupsKeep,
  trashDays,
  recallRewrite: z.boolean(),
  welcomeDismissed: z.boolean(),
  theme: z.enum(THEMES),
};
