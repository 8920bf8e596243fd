/** Nearest-rank percentile of a sample (ms). */
export function percentile(xs: readonly number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** Share of the reference top-k ids that the candidate top-k also holds. */
export function overlap(candidate: readonly string[], reference: readonly string[]): number {
  if (!reference.length) return candidate.length ? 0 : 1;
  const ref = new Set(reference);
  return candidate.filter((id) => ref.has(id)).length / reference.length;
}
