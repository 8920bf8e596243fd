import { AppError } from '../../../shared/errors';

/**
 * The vector contract (docs/memory-model.md): one vector per text, each exactly the declared
 * size, every component finite. Anything else is rejected whole, so nothing
 * half-right is ever written.
 */
export function checkVectors(model: string, dimensions: number, texts: number, vectors: ArrayLike<number>[]): Float32Array[] {
  if (vectors.length !== texts) {
    throw new AppError('embedding_dimension', `${model} returned ${vectors.length} vectors for ${texts} texts.`);
  }
  return vectors.map((v, i) => {
    if (v.length !== dimensions) {
      throw new AppError(
        'embedding_dimension',
        `${model} returned a vector of ${v.length} dimensions for text ${i}; its declared size is ${dimensions}. Nothing was stored.`,
      );
    }
    const out = Float32Array.from(v);
    if (!out.every(Number.isFinite)) {
      throw new AppError('embedding_dimension', `${model} returned a vector with a non-finite component for text ${i}.`);
    }
    return out;
  });
}
