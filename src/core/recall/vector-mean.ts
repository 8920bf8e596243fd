// The mean that merges a question's vector with those of the model's rewrites
// (docs/ranking.md, "Model help").

function unit(v: ArrayLike<number>, n: number): Float32Array {
  const out = new Float32Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) s += (v[i] ?? 0) ** 2;
  const k = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let i = 0; i < n; i++) out[i] = (v[i] ?? 0) * k;
  return out;
}

/** Mean of the unit vectors, normalised: each counts the same, whatever its length (HyDE's merge, recall.ts). */
export function unitMean(vs: ArrayLike<number>[]): Float32Array {
  const n = vs[0]!.length;
  const out = new Float32Array(n);
  for (const v of vs) {
    const u = unit(v, n);
    for (let i = 0; i < n; i++) out[i]! += u[i]!;
  }
  return unit(out, n);
}
