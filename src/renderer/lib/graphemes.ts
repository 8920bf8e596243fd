// Text as a person counts characters: "🧑‍🏫" (a person, a joiner and a school) is one, as
// is "é" written with a combining accent. Intl.Segmenter knows where they end.
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The first character a person sees in `text` (trimmed), or '' for none. */
export function firstGrapheme(text: string): string {
  for (const { segment } of segmenter.segment(text.trim())) return segment;
  return '';
}
