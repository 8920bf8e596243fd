import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
const ext = { vector, pg_textsearch };
const a = new PGlite('/tmp/probe/tpl' + Date.now(), { extensions: ext });
await a.exec('create extension vector; create extension pg_textsearch; create table t(v vector(2));');
const dump = await a.dumpDataDir('gzip'); await a.close();
let t = Date.now();
for (const dir of [undefined, '/tmp/probe/ld' + Date.now()]) {
  try {
    const b = new PGlite(dir, { extensions: ext, loadDataDir: dump });
    await b.waitReady;
    await b.exec('create extension if not exists vector; create extension if not exists pg_textsearch');
    console.log(dir, 'ok', Date.now() - t, (await b.query(`select '[1,2]'::vector <=> '[2,1]'::vector as d`)).rows);
  } catch (e) { console.log(dir, 'fail', e.message); }
  t = Date.now();
}
