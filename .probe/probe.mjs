import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { cpSync, mkdtempSync, readFileSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
const tpl = join(tmpdir(), readdirSync(tmpdir()).find((f) => /^hearth-template-[0-9a-f]{16}$/.test(f)), 'pgdata');
const wasmPath = join('node_modules/@electric-sql/pglite/dist/pglite.wasm');
async function once(opts) {
  const dir = mkdtempSync(join(tmpdir(), 'probe-'));
  const c0 = process.cpuUsage(); const t0 = performance.now();
  cpSync(tpl, dir, { recursive: true });
  const c1 = process.cpuUsage(c0); const t1 = performance.now();
  const db = new PGlite(dir, { extensions: { vector, pg_textsearch }, ...opts });
  await db.waitReady;
  await db.exec('CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_textsearch;');
  await db.query('select 1');
  const c2 = process.cpuUsage(c0); const t2 = performance.now();
  await db.close();
  const c3 = process.cpuUsage(c0); const t3 = performance.now();
  rmSync(dir, { recursive: true, force: true });
  const ms = (c) => ((c.user + c.system) / 1000).toFixed(0);
  return `copy ${ (t1-t0).toFixed(0)}ms/${ms(c1)}cpu  open ${(t2-t1).toFixed(0)}ms/${ms(c2)}cpu(cum)  close ${(t3-t2).toFixed(0)}ms/${ms(c3)}cpu(cum)`;
}
const mode = process.argv[2];
let opts = {};
if (mode === 'module') { const c0=process.cpuUsage(); opts.pgliteWasmModule = await WebAssembly.compile(readFileSync(wasmPath)); console.log('compile cpu', (process.cpuUsage(c0).user/1000).toFixed(0)); }
for (let i = 0; i < 3; i++) console.log(mode, await once(opts), 'load', loadavg()[0].toFixed(1));
