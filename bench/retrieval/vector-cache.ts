import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Vectors cached on disk by model and text hash, so a rerun of the benchmark
 * embeds nothing twice. One binary file per model: [32-byte hash][dims float32]…
 */
export class VectorCache {
  private map = new Map<string, Float32Array>();
  private dirty = false;
  private readonly file: string;

  constructor(dir: string, private readonly model: string, private readonly dims: number) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${model.replace(/[^a-zA-Z0-9._-]+/g, '_')}.${dims}.bin`);
    if (existsSync(this.file)) {
      const buf = readFileSync(this.file);
      const rec = 32 + 4 * dims;
      for (let off = 0; off + rec <= buf.length; off += rec) {
        const key = buf.subarray(off, off + 32).toString('hex');
        const v = new Float32Array(dims);
        for (let i = 0; i < dims; i++) v[i] = buf.readFloatLE(off + 32 + 4 * i);
        this.map.set(key, v);
      }
    }
  }

  private key(text: string): string {
    return createHash('sha256').update(this.model).update('\0').update(text).digest('hex');
  }

  get(text: string): Float32Array | undefined {
    return this.map.get(this.key(text));
  }

  set(text: string, v: Float32Array): void {
    this.map.set(this.key(text), v);
    this.dirty = true;
  }

  missing(texts: string[]): string[] {
    return [...new Set(texts.filter((t) => !this.map.has(this.key(t))))];
  }

  save(): void {
    if (!this.dirty) return;
    const rec = 32 + 4 * this.dims;
    const buf = Buffer.alloc(rec * this.map.size);
    let off = 0;
    for (const [k, v] of this.map) {
      Buffer.from(k, 'hex').copy(buf, off);
      for (let i = 0; i < this.dims; i++) buf.writeFloatLE(v[i] ?? 0, off + 32 + 4 * i);
      off += rec;
    }
    writeFileSync(this.file, buf);
    this.dirty = false;
  }
}
