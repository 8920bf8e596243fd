import { graphemes } from '../../shared/avatar';

/** The first character a person sees in `text` (trimmed), or '' for none: "🧑‍🏫" is one (src/shared/avatar.ts). */
export function firstGrapheme(text: string): string {
  return graphemes(text.trim())[0] ?? '';
}
