/**
 * The JSON in a model's answer. Local models often wrap it in a ```json fence
 * or add a sentence around it; anything that still does not parse is the
 * caller's "malformed output".
 */
export function parseModelJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  const attempts = [body];
  const start = body.search(/[[{]/);
  if (start > 0) attempts.push(body.slice(start));
  for (const a of attempts) {
    try {
      return { ok: true, value: JSON.parse(a) };
    } catch {
      // try the next reading; the last failure is reported below
    }
  }
  return { ok: false, error: `not valid JSON: ${JSON.stringify(text.slice(0, 120))}` };
}
