// A .hearth file's lines checked one at a time (docs/export.md, "Import"):
// the header, then each record against its schema (format.ts) and the rules a
// schema cannot say, so a bad line is refused when it is reached, naming it.
import type { CoreContext } from '../context';
import { DB_DIMENSIONS } from '../db/vector';
import { memoryOrigin } from '../schemas';
import { FORMAT, FORMAT_VERSION, headerSchema, type Header, recordSchema, vectorProblem } from './format';
import { importError } from './lines';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A \uD800–\uDFFF escape: the only way a strictly decoded UTF-8 line can carry half a surrogate pair. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** True when a string (or key) inside a parsed record holds half a surrogate pair, which UTF-8 and Postgres cannot store. */
function loneSurrogate(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return LONE_SURROGATE.test(v);
  if (depth > 64 || v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some((x) => loneSurrogate(x, depth + 1));
  return Object.entries(v).some(([k, x]) => LONE_SURROGATE.test(k) || loneSurrogate(x, depth + 1));
}

function parseJson(line: string, n: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw importError(`Line ${n} is not a JSON record: the file is damaged. Nothing was imported.`);
  }
}

export function checkHeader(line: string | undefined): Header {
  if (line === undefined) throw importError('The file is empty: it holds no Hearth export. Nothing was imported.');
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw importError('This is not a Hearth export: its first line is not a Hearth header. Nothing was imported.');
  }
  const obj = (raw ?? {}) as Record<string, unknown>;
  if (obj.format !== FORMAT) throw importError(`This is not a Hearth persona export (its format is ${JSON.stringify(obj.format ?? null)}, not "${FORMAT}"). Nothing was imported.`);
  if (typeof obj.version === 'number' && obj.version > FORMAT_VERSION) {
    throw importError(`This file was made by a newer Hearth (format version ${obj.version}; this Hearth reads up to version ${FORMAT_VERSION}). Update Hearth, then import it. Nothing was imported.`);
  }
  const parsed = headerSchema.safeParse(raw);
  if (!parsed.success) throw importError(`Line 1, the header, is not valid: ${issues(parsed.error)}. Nothing was imported.`);
  return parsed.data;
}

function issues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || 'record'}: ${i.message}`).join('; ');
}

export function parseRecord(line: string, n: number) {
  const raw = parseJson(line, n);
  if (SURROGATE_ESCAPE.test(line) && loneSurrogate(raw)) {
    throw importError(`Line ${n} holds text that is not valid Unicode (half of a character pair, which cannot be stored): the file was edited or damaged. Nothing was imported.`);
  }
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) throw importError(`Line ${n} is not a valid record (${issues(parsed.error)}). Nothing was imported.`);
  const r = parsed.data;
  if (r.type === 'memory') {
    if (!r.content.trim()) throw importError(`Line ${n}: a memory with empty content. Nothing was imported.`);
    if (!memoryOrigin.safeParse(r.origin).success) throw importError(`Line ${n}: "${r.origin}" is not an origin Hearth knows. Nothing was imported.`);
  }
  if (r.type === 'userModel' && !r.dimension.trim()) throw importError(`Line ${n}: a user-model entry without a dimension name. Nothing was imported.`);
  return r;
}

/**
 * A vector the file holds but that cannot stand for its text (format.ts,
 * vectorProblem) is left out: the row is stored without it and embedded again
 * by the current model, as a row from another model is (docs/export.md).
 */
export function usableVector<T extends { embedding: string | null; embeddingModel: string | null; embeddingError: string | null }>(
  r: T,
  model: string,
  modelDims: number,
): T {
  if (r.embedding === null) return r;
  const problem = vectorProblem(r.embedding, r.embeddingModel === model ? modelDims : DB_DIMENSIONS);
  return problem === null ? r : { ...r, embedding: null, embeddingModel: null, embeddingError: null };
}

/** The current model's vector size, or the column's while none can be asked (the core is closing). */
export function currentDims(ctx: CoreContext): number {
  try {
    return ctx.embedder.current('no-persona').dimensions;
  } catch {
    return DB_DIMENSIONS;
  }
}
