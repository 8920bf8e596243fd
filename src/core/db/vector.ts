import { AppError } from '../../shared/errors';

/** The database contract: every stored vector has this many dimensions (docs/memory-model.md, the vector contract). */
export const DB_DIMENSIONS = 1536;

/**
 * Encodes a vector in pgvector's binary format (int16 dims, int16 unused,
 * float32 big-endian each), zero-padded to the database's 1536 dimensions;
 * padding leaves cosine distance unchanged.
 */
export function encodeVector(v: ArrayLike<number>, dims = DB_DIMENSIONS): Uint8Array {
  if (v.length > dims) {
    throw new AppError('embedding_dimension', `vector has ${v.length} dimensions, more than the ${dims} the database holds`);
  }
  const buf = new Uint8Array(4 + 4 * dims);
  const view = new DataView(buf.buffer);
  view.setInt16(0, dims);
  view.setInt16(2, 0);
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (!Number.isFinite(x)) throw new AppError('embedding_dimension', `vector component ${i} is not a finite number`);
    view.setFloat32(4 + 4 * i, x);
  }
  return buf;
}

/** Decodes pgvector's binary format (as returned by `vector_send(col)`). */
export function decodeVector(buf: Uint8Array): Float32Array {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const dims = view.getInt16(0);
  const out = new Float32Array(dims);
  for (let i = 0; i < dims; i++) out[i] = view.getFloat32(4 + 4 * i);
  return out;
}
