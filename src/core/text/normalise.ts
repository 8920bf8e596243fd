// One text normalisation for search keys, applied to what is indexed and to
// what is asked, so the two meet: a PDF says “recovery” with a curly quote, a
// ligature or a line-end hyphen where the person types plain ASCII. It only
// ever shapes keys (the text index and the vector); the text a person reads
// stays as the document had it. docs/ranking.md, "Clean text".

/** Typographic quotes and primes a person does not type: folded to ' and ". */
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u2035\u02BC]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\u2036\u00AB\u00BB]/g;
/** Hyphens, dashes and the minus sign: folded to '-'. */
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D]/g;
/** Invisible: soft hyphen, zero-width space, word joiner, BOM. (ZWJ/ZWNJ stay: emoji and scripts need them.) */
const INVISIBLE = /[\u00AD\u200B\u2060\uFEFF]/g;
/** Table borders and bullets (box drawing, block elements, bullets): layout, not words. */
const LAYOUT = /[\u2500-\u259F\u2022\u25AA-\u25CF]+/g;
/**
 * A word cut at a line end by a hyphen ("recov-\nery"): a letter, the hyphen,
 * the line break, a lower-case letter. A capital or a digit after the break
 * ("Wi-\nFi", "-\n5") is left as a real hyphen.
 */
const LINE_END_HYPHEN = /(\p{L})-[ \t]*\n[ \t]*(?=\p{Ll})/gu;

export interface NormaliseOptions {
  /** Text extracted from a PDF: words split across line ends are re-joined. */
  pdf?: boolean;
}

/**
 * NFKC (ligatures such as "ﬁ" become "fi", full-width letters plain ones, the
 * no-break space a space), soft hyphens and zero-width characters removed,
 * quotes and dashes folded, table borders dropped, whitespace runs collapsed.
 */
export function normaliseText(text: string, options: NormaliseOptions = {}): string {
  let t = text.replace(INVISIBLE, '');
  if (options.pdf) t = t.replace(LINE_END_HYPHEN, '$1');
  return t
    .normalize('NFKC')
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(DASHES, '-')
    .replace(LAYOUT, ' ')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
