import { z } from 'zod';
import { avatarProblem } from '../avatar';
import { MEMORY_ORIGINS } from '../enums';
import { CATEGORY_MAX, DIMENSION_MAX, SCALE_MAX, SCALE_MIN } from './limits';

// Building blocks of the argument schemas: each value a method takes, checked one way.

export const personaId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'a persona id is lowercase letters, digits, - or _');

export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is written YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a real calendar day');

export const uuid = z.string().uuid('not a valid id');

export const importance = z.number().int('importance is a whole number').min(SCALE_MIN).max(SCALE_MAX);

export const confidence = z.number().int('confidence is a whole number').min(SCALE_MIN).max(SCALE_MAX);

/** An MCP client's name as Hearth stores it (sanitised from its initialize handshake). */
export const MCP_CLIENT_NAME = /^[A-Za-z0-9._-](?:[A-Za-z0-9._ -]{0,62}[A-Za-z0-9._-])?$/;

const mcpOrigin = z
  .templateLiteral(['mcp:', z.string()])
  .refine((s) => MCP_CLIENT_NAME.test(s.slice(4)), 'not a valid MCP client origin');

export const memoryOrigin = z.union([z.enum(MEMORY_ORIGINS), mcpOrigin]);

/** Free text a person or a model typed: trimmed, never empty, bounded. */
export const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `at most ${max} characters`);

/** A memory's category as a model or a person gives it: trimmed, never empty. */
export const category = z.string().trim().min(1).max(CATEGORY_MAX, `a category is at most ${CATEGORY_MAX} characters`);

/** Trimmed, never empty, short, one line: it is printed inside `[dimension, conf=N]`. */
export const dimension = z
  .string()
  .trim()
  .min(1, 'a dimension name must not be empty')
  .max(DIMENSION_MAX, `a dimension name is at most ${DIMENSION_MAX} characters`)
  .regex(/^[^[\],\r\n]+$/, 'a dimension name cannot contain brackets, commas or line breaks');

/**
 * A persona's avatar: one emoji or one or two letters, counted as a person sees them (src/shared/avatar.ts).
 * null, or nothing but spaces, means the name's first character.
 */
export const avatar = z
  .string()
  .max(200)
  .trim()
  .nullable()
  .transform((a) => (a ? a : null))
  .superRefine((a, ctx) => {
    const problem = a === null ? null : avatarProblem(a);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const noArgs = z.object({}).strict();

/** The memory browser's filters (memories.list, and recall's candidate selection). */
export const memoryFilters = z
  .object({
    category: z.string().max(CATEGORY_MAX).optional(),
    importanceMin: importance.optional(),
    importanceMax: importance.optional(),
    dayFrom: isoDay.optional(),
    dayTo: isoDay.optional(),
    origin: memoryOrigin.optional(),
  })
  .strict();
