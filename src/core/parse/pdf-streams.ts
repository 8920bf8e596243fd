// pdfjs inflates a PDF's compressed streams in memory, whole, and offers no
// bound: a 1 MB stream that inflates to 1 GiB grew the process by 2 GB before
// it failed. So before pdfjs sees a file, every Flate stream that text
// extraction may decode (content, fonts, object streams: not images, which it
// never decodes for text) is inflated here as a stream, counted and thrown
// away, and a file past the bound is refused in a second or so with flat
// memory (docs/security.md).
import { createInflate, type Inflate } from 'node:zlib';

/**
 * What the text of a PDF may unpack to: a 300-page text PDF's content streams
 * and fonts come to tens of MB; 256 MiB is room for the largest real ones.
 */
export const MAX_PDF_INFLATED_BYTES = 256 * 1024 * 1024;

const STREAM = Buffer.from('stream');
const END = Buffer.from('endstream');
/** How far back from `stream` its dictionary is looked for. */
const DICT_WINDOW = 4096;

/** The bytes one stream inflates to through `layers` Flate filters, counted up to `budget` (+1 chunk). */
async function inflatedSize(data: Buffer, layers: number, budget: number): Promise<number> {
  const chain: Inflate[] = Array.from({ length: layers }, () => createInflate());
  const last = chain[layers - 1]!;
  for (let k = 0; k < layers - 1; k++) {
    chain[k]!.on('error', (e) => last.destroy(e));
    chain[k]!.pipe(chain[k + 1]!);
  }
  chain[0]!.end(data);
  let n = 0;
  try {
    for await (const chunk of last as AsyncIterable<Buffer>) {
      n += chunk.length;
      if (n > budget) break;
    }
  } catch {
    // A damaged stream: pdfjs decides what to make of it; what came out is counted.
  } finally {
    for (const s of chain) s.destroy();
  }
  return n;
}

/**
 * The total bytes the PDF's non-image Flate streams inflate to, or null once
 * it passes `limit` (counting stops there).
 */
export async function pdfInflatedBytes(bytes: Uint8Array, limit = MAX_PDF_INFLATED_BYTES): Promise<number | null> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (let at = buf.indexOf(STREAM); at >= 0; at = buf.indexOf(STREAM, at + STREAM.length)) {
    // `endstream` contains `stream`: only the keyword that opens a stream's data counts.
    if (at >= 3 && buf.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + STREAM.length;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a && buf[start - 1] !== 0x0d) continue;
    if (buf[start] === 0x0a) start++;
    const dict = buf.toString('latin1', Math.max(0, at - DICT_WINDOW), at);
    const own = dict.slice(dict.lastIndexOf('obj') + 1);
    const end = buf.indexOf(END, start);
    const stop = end < 0 ? buf.length : end;
    at = stop;
    if (/\/Subtype\s*\/Image/.test(own)) continue;
    const layers = (own.match(/\/FlateDecode|\/Fl\b/g) ?? []).length;
    if (!layers) continue;
    total += await inflatedSize(buf.subarray(start, stop), Math.min(layers, 4), limit - total);
    if (total > limit) return null;
  }
  return total;
}
