import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveStatic } from './static';

const root = mkdtempSync(join(tmpdir(), 'hearth-static-'));
const renderer = join(root, 'renderer');
mkdirSync(join(renderer, 'assets'), { recursive: true });
writeFileSync(join(renderer, 'index.html'), '<!doctype html>');
writeFileSync(join(renderer, 'assets', 'app.js'), '');
writeFileSync(join(root, 'secrets.json'), '{"key":"sk-…"}');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('static files', () => {
  it('serves the page for / and files inside the renderer folder', () => {
    expect(resolveStatic(renderer, '/')).toBe(join(renderer, 'index.html'));
    expect(resolveStatic(renderer, '/assets/app.js')).toBe(join(renderer, 'assets', 'app.js'));
  });

  it('never serves anything outside it, however the path is written', () => {
    for (const p of ['/../secrets.json', '/assets/../../secrets.json', '/%2e%2e/secrets.json', '/..%2fsecrets.json', '/assets/%2e%2e%2f%2e%2e%2fsecrets.json', '/%00', '/%E0%A4%A']) {
      expect(resolveStatic(renderer, p), p).toBeNull();
    }
  });

  it('answers null for missing files and folders', () => {
    expect(resolveStatic(renderer, '/nope.js')).toBeNull();
    expect(resolveStatic(renderer, '/assets')).toBeNull();
  });
});
