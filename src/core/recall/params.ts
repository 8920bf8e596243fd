/** Collects bound parameters while SQL is assembled: only what the text uses is bound. */
export class Params {
  readonly values: unknown[] = [];

  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}
