// Query strings a model or a user might type, and worse: shared by the recall robustness test
// (a seeded few hundred) and bench:faults' "hostile recall" section (thousands).
import { pick, question, sentence } from './synthetic-corpus';

export const HOSTILE = [
  `'`, `"`, `''`, `\\`, `\\'`, '&', '|', '!', ':', '*', '(', ')', '<->', '<2>', ':*', '!!', '&&', '||', '(()', '))',
  `'); DROP TABLE memories; --`, '$1', '%', '_', ';', '--', '/*', '*/', 'OR 1=1', 'a:*B', 'x:A', 'foo & !bar | (baz:*)',
  '😀', '🔥💾', '\u0000', '\ud800', '\udfff', '\u202e', 'é', 'ß', '中文', 'עברית', '\t', '\n', '\r\n', ' ', '',
  'the', 'of', 'and', 'what', 'did', 'coffee', 'zebra', 'morning', 'to_tsquery', 'tsvector', 'NULL', 'null', 'undefined',
  '0', '-1', '1e309', 'NaN', '[1,2,3]', '{}', '<script>', '&amp;', '\\x00', 'E\'\\\\\'',
];

/** A seeded stream of strings a model or a user might type, and worse. */
export function hostileQuery(rnd: () => number): string {
  const r = rnd();
  if (r < 0.005) return pick(rnd, HOSTILE).repeat(10_000).slice(0, 10_240); // 10 kB of one fragment
  if (r < 0.01) return Array.from({ length: 1_500 }, () => sentence(rnd).split(' ')[0]).join(' ').slice(0, 10_240); // 10 kB of words
  if (r < 0.1) return String.fromCharCode(...Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => Math.floor(rnd() * 0xffff)));
  const parts = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => (rnd() < 0.5 ? pick(rnd, HOSTILE) : question(rnd)));
  return parts.join(rnd() < 0.5 ? ' ' : '');
}
