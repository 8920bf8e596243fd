/**
 * pdfjs-dist's legacy build creates a DOMMatrix at import time, and only the
 * optional native @napi-rs/canvas provides one in Node. Text extraction never
 * uses the matrix maths, so when it is missing an inert 2-D matrix is enough.
 */
class DOMMatrixStub {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  constructor(init?: number[]) {
    if (Array.isArray(init) && init.length >= 6) {
      [this.a, this.b, this.c, this.d, this.e, this.f] = init as [number, number, number, number, number, number];
    }
  }
  multiplySelf(): this {
    return this;
  }
  preMultiplySelf(): this {
    return this;
  }
  translate(): this {
    return this;
  }
  scale(): this {
    return this;
  }
  invertSelf(): this {
    return this;
  }
}

export function ensureDomMatrix(): void {
  const g = globalThis as { DOMMatrix?: unknown };
  if (typeof g.DOMMatrix === 'undefined') g.DOMMatrix = DOMMatrixStub;
}
