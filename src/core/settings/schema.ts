import { isAbsolute } from 'node:path';
import type { z } from 'zod';
import { settingFields, settingsPatch as contractPatch, settingsSchema, testConnectionArgs } from '../../shared/settings';

// Validation of settings as they cross the API (the contract's patch, src/shared/settings.ts,
// plus what only the core can check) and as they come back out of the database.

/** The workspace folder must be absolute on the platform the core runs on. */
const workspaceDir = settingFields.workspaceDir.refine((p) => isAbsolute(p), 'must be an absolute path');

export const settingsPatch = contractPatch.extend({ workspaceDir: workspaceDir.nullable().optional() });

export { testConnectionArgs };

export type SettingsPatchInput = z.output<typeof settingsPatch>;

/** How each stored key reads back; a value that no longer fits falls back to the default. */
export const stored = settingsSchema.shape;
