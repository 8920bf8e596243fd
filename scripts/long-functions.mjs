#!/usr/bin/env node
// Lists product functions longer than a limit (80 lines by default), longest first, using the
// TypeScript parser so that arrow functions, methods and callbacks count like declarations.
// A function's lines include the functions nested in it; each nested one is listed on its own too.
// Tests, test helpers (src/core/testing) and declaration files are left out.
//
//   node scripts/long-functions.mjs [folder …] [--max 80] [--json]
//
// Folders default to src. Exit code 0 always: the list is a report, not a gate.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
let max = 80;
let json = false;
const roots = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--max') max = Number(args[++i]);
  else if (a === '--json') json = true;
  else roots.push(a);
}
if (!Number.isFinite(max) || max < 1) {
  console.error('--max takes a positive number of lines');
  process.exit(2);
}
if (roots.length === 0) roots.push('src');

const excluded = (path) => {
  const p = path.split(sep).join('/');
  return /\.(test|spec)\.tsx?$/.test(p) || p.endsWith('.d.ts') || p.includes('src/core/testing/') || p.includes('/node_modules/');
};

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mts|cts)$/.test(name) && !excluded(path)) yield path;
  }
}

/** The name a person would search for: the function's own, or what holds it (a variable, a property, a call). */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && (ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  let p = node.parent;
  while (p && (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression?.(p))) p = p.parent;
  if (!p) return '(anonymous)';
  if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  if (ts.isPropertyDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return p.left.getText();
  if (ts.isExportAssignment(p)) return 'default';
  if (ts.isCallExpression(p)) {
    // A callback: named for the variable the call is assigned to, else for the call.
    let q = p.parent;
    while (q && (ts.isCallExpression(q) || ts.isParenthesizedExpression(q) || ts.isAsExpression(q))) q = q.parent;
    if (q && ts.isVariableDeclaration(q) && ts.isIdentifier(q.name)) return q.name.text;
    return `${p.expression.getText().slice(0, 40)}(callback)`;
  }
  return '(anonymous)';
}

const found = [];
for (const root of roots) {
  for (const path of files(root)) {
    const text = readFileSync(path, 'utf8');
    const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > max) found.push({ file: relative(process.cwd(), path).split(sep).join('/'), line: start + 1, name: nameOf(node), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}

found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
if (json) console.log(JSON.stringify(found, null, 2));
else {
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
  console.log(`${found.length} function(s) over ${max} lines in ${roots.join(', ')}`);
}
