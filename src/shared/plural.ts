// "1 chunk", "2 chunks": the count and the word in the form English gives it, by the
// language's own plural rules (Intl.PluralRules), for the core's messages and the page alike.
// No runtime dependencies.

const rules = new Intl.PluralRules('en');

/** `n` and the word: `one` for a single thing, `many` (default: `one` + "s") otherwise. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${rules.select(n) === 'one' ? one : many}`;
}
