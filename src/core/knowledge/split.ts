// Splitting a paragraph too long for one chunk: on sentence ends, then on
// whitespace, then (a "word" longer than a chunk) at a fixed length.
// Every function returns pieces that concatenate back to exactly its input.

// A sentence ends at . ! ? … (plus closing quotes/brackets) before whitespace,
// or at CJK full stops, which need no whitespace after them.
const SENTENCE_END = /[.!?…]+["'”’)\]]*(?=\s)|[。！？]+["'”’」』)）]*/g;
const WORD_START = /\s+/g;

function cutAt(text: string, re: RegExp, useEnd: boolean): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const m of text.matchAll(re)) {
    const at = useEnd ? m.index + m[0].length : m.index;
    if (at > from && at < text.length) {
      pieces.push(text.slice(from, at));
      from = at;
    }
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** Greedily joins consecutive pieces up to `max`; pieces still too long go to `fallback`. */
function pack(pieces: string[], max: number, fallback: (p: string) => string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const p of pieces) {
    if (p.length > max) {
      if (current) out.push(current);
      current = '';
      out.push(...fallback(p));
    } else if (current.length + p.length > max) {
      out.push(current);
      current = p;
    } else {
      current += p;
    }
  }
  if (current) out.push(current);
  return out;
}

export function hardSplit(text: string, max: number): string[] {
  const out: string[] = [];
  let from = 0;
  while (from < text.length) {
    let to = Math.min(from + max, text.length);
    // Keep surrogate pairs (emoji, rare CJK) whole.
    if (to < text.length && /[\uDC00-\uDFFF]/.test(text[to] ?? '') && to - 1 > from) to--;
    out.push(text.slice(from, to));
    from = to;
  }
  return out;
}

export function splitWords(text: string, max: number): string[] {
  return pack(cutAt(text, WORD_START, false), max, (p) => hardSplit(p, max));
}

export function splitLongParagraph(text: string, max: number): string[] {
  if (max < 2) throw new RangeError('piece size too small');
  if (text.length <= max) return [text];
  return pack(cutAt(text, SENTENCE_END, true), max, (p) => splitWords(p, max));
}
