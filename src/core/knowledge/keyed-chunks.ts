import { contextualKey, titleFromName } from '../text/contextual-key';
import type { Chunk } from './chunk';
import type { SourceChunk } from './store';
import { chunkWindows } from './windows';

/**
 * What the store needs for each chunk: its contextual key (title + nearest
 * heading + normalised text, for the text index and the vector) and its
 * sentence windows. `name` is the file or source name, the document's title.
 */
export function keyedChunks(chunks: Chunk[], name: string, options: { pdf?: boolean } = {}): SourceChunk[] {
  const title = titleFromName(name);
  return chunks.map((c) => ({
    content: c.content,
    ...(c.pageFrom !== undefined ? { pageFrom: c.pageFrom, pageTo: c.pageTo } : {}),
    key: contextualKey(c.content, { title, heading: c.heading ?? null }, options),
    windows: chunkWindows(c, title, options),
  }));
}
