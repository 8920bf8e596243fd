// Where export and import spend their time (issue #14, docs/export.md
// "Where the time goes"): every statement the core sends is timed twice —
// the time it ran in the database (the worker's own figure) and the time
// until its answer came back (adds the trip to the worker and back, and the
// copying of parameters and rows) — and grouped by kind of statement, with the
// rows it covered. The JavaScript-only steps (gunzip and line splitting,
// JSON.parse, zod, base64 → vector, JSON.stringify, gzip) are timed alone
// over the same file. One run; prints the load average.
//   npx tsx bench/export-profile.ts [--n 5000] [--chunks 150]
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Queryable } from '../src/core/db/client';
import { DB_DIMENSIONS } from '../src/core/db/vector';
import { base64ToVector, recordSchema } from '../src/core/portable/format';
import { makeTestCore } from '../src/core/testing/core';
import { loadBenchPersona } from './export-data';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const N = Number(arg('n', '5000'));
const CHUNKS = Number(arg('chunks', '150'));
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

interface Kind { statements: number; rows: number; dbMs: number; wallMs: number; paramBytes: number }

/** Wraps db.query: per kind of statement (its first words), how many, rows, database ms, answer ms. */
function tap(db: Queryable): { stats: Map<string, Kind>; reset(): void } {
  const stats = new Map<string, Kind>();
  const orig = db.query.bind(db);
  db.query = (async (sql: string, params: unknown[] = []) => {
    const t = performance.now();
    const res = await orig(sql, params);
    const wall = performance.now() - t;
    const key = sql.replace(/\s+/g, ' ').trim().slice(0, 48);
    const k = stats.get(key) ?? { statements: 0, rows: 0, dbMs: 0, wallMs: 0, paramBytes: 0 };
    k.statements++;
    k.rows += Math.max(res.rows.length, res.affectedRows);
    k.dbMs += res.ms ?? 0;
    k.wallMs += wall;
    for (const p of params) k.paramBytes += p instanceof Uint8Array ? p.byteLength : typeof p === 'string' ? p.length : 8;
    stats.set(key, k);
    return res;
  }) as Queryable['query'];
  return { stats, reset: () => stats.clear() };
}

function print(title: string, totalMs: number, stats: Map<string, Kind>): void {
  const rows = [...stats.entries()].sort((a, b) => b[1].wallMs - a[1].wallMs);
  const db = rows.reduce((s, [, k]) => s + k.dbMs, 0);
  const wall = rows.reduce((s, [, k]) => s + k.wallMs, 0);
  console.log(`\n${title}: ${totalMs.toFixed(0)} ms in all; statements: database ${db.toFixed(0)} ms, answered in ${wall.toFixed(0)} ms; ` +
    `the rest (JavaScript between statements) ${(totalMs - wall).toFixed(0)} ms; load average ${load()}`);
  console.log('| statement | n | rows | rows/stmt | db ms | db ms/stmt | µs/row (db) | trip+copy ms | param MB |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [key, k] of rows.slice(0, 14)) {
    console.log(`| ${key} | ${k.statements} | ${k.rows} | ${(k.rows / k.statements).toFixed(0)} | ${k.dbMs.toFixed(0)} | ${(k.dbMs / k.statements).toFixed(1)} | ` +
      `${k.rows ? ((k.dbMs * 1000) / k.rows).toFixed(0) : '-'} | ${(k.wallMs - k.dbMs).toFixed(0)} | ${(k.paramBytes / 1048576).toFixed(1)} |`);
  }
}

function timeIt(label: string, fn: () => void): number {
  const t = performance.now();
  fn();
  const ms = performance.now() - t;
  console.log(`  ${label}: ${ms.toFixed(0)} ms`);
  return ms;
}

async function main(): Promise<void> {
  console.log(`export-profile — ${N} memories + ${CHUNKS} chunks; load average ${load()}`);
  const core = await makeTestCore();
  await loadBenchPersona(core, N, CHUNKS);
  // The start-up integrity check and the job runner's first rounds would land inside the first step.
  await new Promise((r) => setTimeout(r, 5000));
  const { stats, reset } = tap(core.ctx.db);
  const file = join(tmpdir(), `hearth-profile-${process.pid}.hearth`);

  reset();
  let t = performance.now();
  const res = await core.call('personas.export', { id: 'bench' });
  print('export', performance.now() - t, stats);
  copyFileSync(res.path!, file);
  rmSync(res.path!);

  reset();
  t = performance.now();
  await core.call('personas.import', { path: file });
  print('import', performance.now() - t, stats);

  // The JavaScript-only steps over the same file, alone.
  const gz = readFileSync(file);
  console.log(`\nJavaScript steps over the file (${(gz.length / 1048576).toFixed(1)} MB gzip), alone; load average ${load()}`);
  let text = '';
  timeIt('gunzip', () => void (text = gunzipSync(gz).toString('utf8')));
  const lines = text.split('\n').filter(Boolean);
  let objs: unknown[] = [];
  timeIt(`JSON.parse of ${lines.length} lines`, () => void (objs = lines.map((l) => JSON.parse(l))));
  timeIt('zod (recordSchema.parse)', () => void objs.slice(1).forEach((o) => recordSchema.parse(o)));
  const vecs = objs.map((o) => (o as { embedding?: string | null }).embedding).filter((e): e is string => typeof e === 'string');
  timeIt(`base64 → 1536-d vector, ${vecs.length} vectors`, () => vecs.forEach((v) => base64ToVector(v, DB_DIMENSIONS)));
  timeIt('JSON.stringify of every record', () => void objs.map((o) => JSON.stringify(o)));
  for (const level of [6, 1]) {
    let out = Buffer.alloc(0);
    timeIt(`gzip level ${level}`, () => void (out = gzipSync(Buffer.from(text), { level })));
    console.log(`    → ${(out.length / 1048576).toFixed(2)} MB`);
  }
  const vecChars = vecs.reduce((s, v) => s + v.length, 0);
  console.log(`  vector text: ${(vecChars / 1048576).toFixed(1)} MB of ${(text.length / 1048576).toFixed(1)} MB uncompressed ` +
    `(${Math.round(vecChars / Math.max(1, vecs.length))} chars a vector; a 1536-d binary parameter is ${4 + 4 * DB_DIMENSIONS} bytes)`);
  rmSync(file, { force: true });
  await core.dispose();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
