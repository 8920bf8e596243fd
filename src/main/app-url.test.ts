import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appFile } from './app-url';

const root = mkdtempSync(join(tmpdir(), 'hearth-app-url-'));
const renderer = join(root, 'renderer');
mkdirSync(join(renderer, 'assets'), { recursive: true });
writeFileSync(join(renderer, 'index.html'), '<!doctype html>');
writeFileSync(join(renderer, 'assets', 'app.js'), '');
writeFileSync(join(root, 'secrets.enc'), 'sealed');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('app:// serves the renderer build and nothing else', () => {
  it('maps app://hearth/ paths to files in the renderer folder', () => {
    expect(appFile(renderer, 'app://hearth/index.html')).toBe(join(renderer, 'index.html'));
    expect(appFile(renderer, 'app://hearth/')).toBe(join(renderer, 'index.html'));
    expect(appFile(renderer, 'app://hearth/assets/app.js?v=1#x')).toBe(join(renderer, 'assets', 'app.js'));
  });

  it('refuses every way out of the folder, other hosts and other schemes', () => {
    for (const url of [
      'app://hearth/../secrets.enc',
      'app://hearth/assets/../../secrets.enc',
      'app://hearth/%2e%2e/secrets.enc',
      'app://hearth/..%2fsecrets.enc',
      'app://hearth/assets/%2e%2e%2f%2e%2e%2fsecrets.enc',
      'app://hearth/%00',
      'app://hearth/assets',
      'app://hearth/missing.js',
      'app://other/index.html',
      'file:///etc/passwd',
      'not a url',
    ]) {
      expect(appFile(renderer, url), url).toBeNull();
    }
  });
});
