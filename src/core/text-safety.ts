import { AppError } from '../shared/errors';

// Postgres text cannot hold U+0000, and UTF-8 cannot hold a lone UTF-16
// surrogate (half of an emoji cut in two). Both arrive from outside: a page,
// a script, an MCP client, a model's tool call. A NUL is refused, naming the
// field (silently dropping characters from what someone typed is not ours to
// decide), except in a method that stores none of its text (a search), where
// it reads as a space; a lone surrogate is replaced with U+FFFD, as the database would do
// anyway, and the caller is told where. See docs/security.md.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
const MAX_DEPTH = 32;
/** Checked by their own schema (the base64 alphabet), and up to ~150 MB long. */
const SKIPPED_FIELDS = new Set(['dataBase64']);

export interface CheckedText<T> {
  value: T;
  /** Where a NUL was found (e.g. `content`, `filters.category`), or null. */
  nulAt: string | null;
  /** Fields whose lone surrogates were replaced with U+FFFD. */
  replaced: string[];
}

function fieldName(path: (string | number)[]): string {
  return path.length ? path.join('.') : 'the value';
}

/** Walks strings inside plain objects and arrays; returns a cleaned copy only where something changed. */
export function checkText<T>(value: T, opts: { nulAsSpace?: boolean } = {}): CheckedText<T> {
  let nulAt: string | null = null;
  const replaced: string[] = [];
  const walk = (v: unknown, path: (string | number)[]): unknown => {
    if (nulAt !== null || path.length > MAX_DEPTH) return v;
    if (typeof v === 'string') {
      let s = v;
      if (s.includes('\u0000')) {
        if (!opts.nulAsSpace) {
          nulAt = fieldName(path);
          return v;
        }
        s = s.replaceAll('\u0000', ' ');
      }
      if (!LONE_SURROGATE.test(s)) return s;
      replaced.push(fieldName(path));
      return s.replace(LONE_SURROGATES, '\uFFFD');
    }
    if (Array.isArray(v)) {
      let copy: unknown[] | null = null;
      v.forEach((item, i) => {
        const next = walk(item, [...path, i]);
        if (next !== item) (copy ??= [...v])[i] = next;
      });
      return copy ?? v;
    }
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      let copy: Record<string, unknown> | null = null;
      for (const [k, item] of Object.entries(v)) {
        if (SKIPPED_FIELDS.has(k)) continue;
        const next = walk(item, [...path, k]);
        if (next !== item) (copy ??= { ...(v as Record<string, unknown>) })[k] = next;
      }
      return copy ?? v;
    }
    return v;
  };
  const cleaned = walk(value, []) as T;
  return { value: cleaned, nulAt, replaced };
}

export function nulRefused(field: string): AppError {
  return new AppError(
    'invalid_args',
    `${field} contains a NUL character (U+0000), which cannot be stored. Remove it and try again; nothing was changed.`,
    { field },
  );
}

export function surrogateNote(fields: string[]): string {
  return `Some text in ${fields.slice(0, 5).join(', ')} was not valid Unicode (half of a character, such as an emoji cut in two); each broken piece was stored as the replacement character �.`;
}
