// A persona's avatar and its delete confirmation, shared by the core (which enforces them) and the
// renderer (which shows the same verdict live), so the two can never disagree (docs/persona-avatar.md).

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The characters a person sees in `text`: "🧑‍🏫" (a person, a joiner and a school) is one. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** A picture character: pictographs (with their joiners and modifiers), flags, keycaps like 1️⃣. */
export function isEmoji(grapheme: string): boolean {
  return /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(grapheme);
}

const LETTER = /^\p{L}\p{M}*$/u;

/** At most this many UTF-16 units: the longest single emoji in use (a family with skin tones) is well under it. */
export const AVATAR_MAX_UNITS = 40;

/**
 * Why `avatar` (already trimmed) is not one emoji or one or two letters, or null when it is.
 * A mix ("A🙂") or two emoji is refused: the sidebar shows one small square.
 */
export function avatarProblem(avatar: string): string | null {
  if (!avatar) return 'An avatar is one emoji or one or two letters; leave it empty to use the name’s first letter.';
  if (avatar.length > AVATAR_MAX_UNITS) return 'An avatar is one emoji or one or two letters.';
  const g = graphemes(avatar);
  if (g.length === 1 && isEmoji(g[0]!)) return null;
  if (g.length <= 2 && g.every((c) => LETTER.test(c))) return null;
  return 'An avatar is one emoji or one or two letters.';
}

/** What the sidebar shows: the chosen avatar, or else the name's first character. */
export function avatarOf(p: { name: string; avatar: string | null }): string {
  if (p.avatar) return p.avatar;
  const first = graphemes(p.name.trim())[0] ?? '';
  return first.toUpperCase() || '?';
}

/**
 * Whether `typed` confirms deleting the persona called `name`: the name itself, after trimming, or, for a
 * name that begins with an emoji ("🧑‍🏫 Teacher"), the rest of it ("Teacher"), so nobody has to type an emoji.
 */
export function confirmsName(name: string, typed: string): boolean {
  const t = typed.trim();
  const n = name.trim();
  if (!t) return false;
  if (t === n) return true;
  const first = graphemes(n)[0];
  if (!first || !isEmoji(first)) return false;
  const rest = n.slice(first.length).trimStart();
  return rest !== '' && t === rest;
}
