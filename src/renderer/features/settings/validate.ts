import type { z } from 'zod';
import { settingFields } from '../../../shared/settings';

// The checks a person can act on before saving. The rules are the contract's
// (src/shared/settings.ts), the same schemas the core checks a save with, so the
// page and the core give one answer in the same words. Only what a text field
// adds of its own (blank, not a number) is worded here.

/** The contract's first objection to a value, as a sentence; undefined when it fits. */
export function schemaProblem(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  const m = r.error.issues[0]?.message ?? 'not a valid value';
  return `${m.charAt(0).toUpperCase()}${m.slice(1)}${/[.!?]$/.test(m) ? '' : '.'}`;
}

export function urlProblem(s: string, required = false): string | undefined {
  const v = s.trim();
  if (!v) return required ? 'Enter the server’s base URL, e.g. http://127.0.0.1:11434/v1.' : undefined;
  return schemaProblem(settingFields.baseUrl, v);
}

/** A whole-number field checked against one of the contract's settings (reviewEvery, dimensions, …). */
export function wholeNumberProblem(s: string, schema: z.ZodType): string | undefined {
  const v = s.trim();
  if (!v) return 'Enter a number.';
  if (!/^\d+$/.test(v)) return 'Enter a whole number.';
  return schemaProblem(schema, Number(v));
}

export const orNull = (s: string): string | null => (s.trim() === '' ? null : s.trim());
