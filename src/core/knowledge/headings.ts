// Telling a heading from a paragraph in plain text (Markdown, text, PDF text):
// the chunker keeps a heading with the section it opens and gives each chunk
// the nearest one as context (docs/ranking.md, "Contextual keys").

const MARKDOWN = /^#{1,6}\s+\S/;
/** "3.", "14.1. Using EXPLAIN", "2.4.1 Setup", "A.2 Tables", "Chapter 4: Rules". */
const NUMBERED = /^(?:(?:\d+|[A-Z])(?:\.\d+)*\.?|(?:chapter|section|part|appendix)\s+[\dIVXLC]+[.:]?)\s+\S/i;
const MAX_HEADING = 120;

/**
 * A paragraph is a heading when it is one short line that is a Markdown
 * heading, or a numbered section title, or a short title-like line (capital
 * first letter, no closing punctuation, few words).
 */
export function isHeading(paragraph: string): boolean {
  const p = paragraph.trim();
  if (!p || p.length > MAX_HEADING || p.includes('\n')) return false;
  if (MARKDOWN.test(p)) return true;
  // A sentence, a list item, a command or a table row is not a title.
  if (/[.:;,!?)]$/.test(p) && !/^\d+(?:\.\d+)*\.$/.test(p)) return false;
  if (/^[-*•>|`$]/.test(p) || /[│|=<>{}();]/.test(p)) return false;
  if (NUMBERED.test(p)) return true;
  const words = p.split(/\s+/);
  return words.length <= 8 && /^\p{Lu}/u.test(p) && words.filter((w) => /^\p{Lu}/u.test(w)).length >= Math.ceil(words.length / 2);
}

/** The heading without Markdown marks ("## Setup" → "Setup"). */
export function headingText(heading: string): string {
  return heading.replace(/^#{1,6}\s+/, '').trim();
}
