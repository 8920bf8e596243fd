// The checks a person can act on before saving; the core validates again (the
// same rules in src/core/settings/schema.ts) and its answer is shown the same way.

export function urlProblem(s: string, required = false): string | undefined {
  const v = s.trim();
  if (!v) return required ? 'Enter the server’s base URL, e.g. http://127.0.0.1:11434/v1.' : undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'Not a URL: write it in full, e.g. http://127.0.0.1:11434/v1.';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'Use an http:// or https:// address.';
  if (u.username || u.password) return 'Leave the user name and password out of the URL; use the API key field.';
  return undefined;
}

export function wholeNumberProblem(s: string, min: number, max: number, unit = ''): string | undefined {
  const v = s.trim();
  if (!v) return 'Enter a number.';
  if (!/^\d+$/.test(v)) return 'Enter a whole number.';
  const n = Number(v);
  const u = unit ? ` ${unit}` : '';
  if (n < min) return `At least ${min.toLocaleString()}${u}.`;
  if (n > max) return `At most ${max.toLocaleString()}${u}.`;
  return undefined;
}

export const orNull = (s: string): string | null => (s.trim() === '' ? null : s.trim());
