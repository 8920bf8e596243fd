import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// A comment that explains a choice must point somewhere the next engineer can
// read: the design notes in docs/. Documents outside the repository (the
// product contract and machine notes the project started from) are not in a
// clone, so a comment citing them leads nowhere (docs/architecture.md).

const ROOT = resolve(import.meta.dirname, '..');
const FOLDERS = ['src', 'bench', 'scripts', 'e2e'];
const OUTSIDE = /\bSPEC\s*§|\bSPEC's\b|STACK-FACTS|ARCHITECTURE\.md|memory-design-reference|\.\.\/shared\/(?!bench-data)/;
// Migrations are checksummed and never edited once released (docs/memory-model.md).

// The notes themselves and the README are read by people with only a clone, too:
// they state a rule rather than cite where it came from, and every note they
// link to exists. No `../shared` at all here: a data set a bench reads is named
// by its `--data DIR`, not by a path outside the clone.
const NOTE_OUTSIDE = /\bSPEC\b|STACK-FACTS|ARCHITECTURE\.md|memory-design-reference|\.\.\/shared\b/;
const notes = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
];

function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return codeFiles(path);
    return /\.(ts|tsx|mts|mjs|js|css)$/.test(name) ? [path] : [];
  });
}

/** The comment lines of a file: `//` tails and the lines of block comments. */
function commentLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let inBlock = false;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!inBlock && line.startsWith('/*')) inBlock = true;
    if (inBlock) {
      out.push({ line: i + 1, text: line });
      if (line.includes('*/')) inBlock = false;
      return;
    }
    // `//` after the start of a line or a space: a comment, not a URL's `://`.
    const tail = /(?:^|\s)(\/\/.*)$/.exec(raw);
    if (tail) out.push({ line: i + 1, text: tail[1]! });
  });
  return out;
}

const files = FOLDERS.flatMap((f) => codeFiles(join(ROOT, f)));

describe('code comments cite documents a clone has', () => {
  it('no comment cites a document outside the repository', () => {
    const bad = files.flatMap((file) =>
      commentLines(readFileSync(file, 'utf8'))
        .filter((c) => OUTSIDE.test(c.text))
        .map((c) => `${relative(ROOT, file)}:${c.line}: ${c.text}`),
    );
    expect(bad).toEqual([]);
  });

  it('every docs/*.md a comment names exists', () => {
    const missing = files.flatMap((file) =>
      commentLines(readFileSync(file, 'utf8')).flatMap((c) =>
        [...c.text.matchAll(/(?<![\w/.-])docs\/([a-z0-9-]+\.md)/g)]
          .filter((m) => !existsSync(join(ROOT, 'docs', m[1]!)))
          .map((m) => `${relative(ROOT, file)}:${c.line}: docs/${m[1]}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});

describe('the README and docs/ cite only what a clone has', () => {
  it('no note cites a document outside the repository', () => {
    const bad = notes.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((text, i) => (NOTE_OUTSIDE.test(text) ? [`${relative(ROOT, file)}:${i + 1}: ${text.trim()}`] : [])),
    );
    expect(bad, 'these lines cite a document outside the repository: state the rule itself').toEqual([]);
  });

  it('every docs/*.md a note links to exists', () => {
    const missing = notes.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((text, i) => {
          // A `docs/<name>.md` path anywhere, and a `[…](<name>.md)` link between notes in docs/.
          const inDocs = relative(ROOT, file).startsWith('docs/');
          const named = [...text.matchAll(/(?<![\w/.-])docs\/([a-z0-9-]+\.md)/g)].map((m) => join(ROOT, 'docs', m[1]!));
          const linked = inDocs
            ? [...text.matchAll(/\]\(([a-z0-9-]+\.md)(?:#[^)]*)?\)/g)].map((m) => join(ROOT, 'docs', m[1]!))
            : [];
          return [...named, ...linked]
            .filter((target) => !existsSync(target))
            .map((target) => `${relative(ROOT, file)}:${i + 1}: ${relative(ROOT, target)}`);
        }),
    );
    expect(missing, 'these notes link to a docs/ file that does not exist').toEqual([]);
  });
});
