// Contextual keys: what a passage is searched by is the passage plus the
// context a reader has when they meet it — the document's title and the
// heading above it — cleaned by normaliseText. The key feeds the text index
// and the vector; the passage shown stays as written. Built for knowledge
// chunks and their sentence windows; memories can pass their own context
// (docs/ranking.md, "Contextual keys").
import { type NormaliseOptions, normaliseText } from './normalise';

export interface KeyContext {
  /** The document's title (for a file, its name without the extension). */
  title?: string | null;
  /** The nearest heading above the passage. */
  heading?: string | null;
}

/** The search key of `text`: the context lines that add something, a blank line, the normalised text. */
export function contextualKey(text: string, context: KeyContext, options: NormaliseOptions = {}): string {
  const body = normaliseText(text, options);
  const lines: string[] = [];
  for (const raw of [context.title, context.heading]) {
    const line = raw ? normaliseText(raw).replace(/\s+/g, ' ') : '';
    // A heading the passage opens with, or one equal to the title, would only count its words twice.
    if (!line || lines.includes(line) || body.startsWith(line)) continue;
    lines.push(line);
  }
  return lines.length ? `${lines.join('\n')}\n\n${body}` : body;
}

/** A file name as a title: "high-availability.pdf" → "high availability". */
export function titleFromName(name: string): string {
  const stem = name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return stem.replace(/[-_.]+/g, ' ').replace(/\s+/g, ' ').trim() || name;
}
