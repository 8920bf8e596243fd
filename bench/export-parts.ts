// What one memory row costs the database, part by part, each way (issue #14,
// docs/export.md "Where the time goes"). Export: a page of memories read
// several ways (the export's own statement, and with each of its parts alone).
// Import: the same rows stored several ways and
// with each index or trigger taken away in turn, every variant in a
// transaction that is rolled back. Each statement is timed twice: by the
// database worker (wall time of the statement alone) and as CPU time of the
// process (every thread, including making the rows ready in JavaScript), which
// moves far less with a busy machine's load. Median of --reps statements of
// --rows rows each, as µs per row. Prints the load average.
//   npx tsx bench/export-parts.ts [--n 3000] [--rows 200] [--reps 5]
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { PgliteDb, Queryable } from '../src/core/db/client';
import { DB_DIMENSIONS, encodeVector } from '../src/core/db/vector';
import { copyBinary, type Field } from '../src/core/db/copy-binary';
import { personaRecords } from '../src/core/portable/export';
import { makeTestCore } from '../src/core/testing/core';
import { loadBenchPersona, sentence, vector } from './export-data';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const N = Number(arg('n', '3000'));
const ROWS = Number(arg('rows', '200'));
const REPS = Number(arg('reps', '5'));
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

class Rollback extends Error {}

interface Row {
  id: string; content: string; category: string | null; importance: number; day: string; vec: Float32Array; at: string;
}

function rows(seed: number): Row[] {
  return Array.from({ length: ROWS }, (_, k) => ({
    id: randomUUID(),
    content: sentence(seed + k),
    category: k % 3 ? 'work' : null,
    importance: 1 + (k % 10),
    day: `2025-${String(1 + (k % 12)).padStart(2, '0')}-${String(1 + (k % 28)).padStart(2, '0')}`,
    vec: vector(seed + k),
    at: '2025-03-04T05:06:07.123456Z',
  }));
}

/** The component bytes only (as the file holds them), with pgvector's 4-byte header: padded in SQL. */
const short = (v: Float32Array) => encodeVector(v, v.length);

const COLS = 'id, persona, category, content, importance, day, embedding, staged_model, origin, inserted_at, updated_at';
const fields = (r: Row, vec: Uint8Array, model: string, n?: number): Field[] => [
  ...(n === undefined ? [] : [{ t: 'int4', v: n } as Field]),
  { t: 'uuid', v: r.id }, { t: 'text', v: 'bench' }, { t: 'text', v: r.category }, { t: 'text', v: r.content },
  { t: 'int4', v: r.importance }, { t: 'date', v: r.day }, { t: 'bytes', v: vec }, { t: 'text', v: model }, { t: 'text', v: 'import' },
  { t: 'timestamptz', v: r.at }, { t: 'timestamptz', v: r.at },
];
const padded = (e: string) =>
  `CASE WHEN vector_dims(${e}) < ${DB_DIMENSIONS} THEN ${e} || array_fill(0::real, ARRAY[${DB_DIMENSIONS} - vector_dims(${e})])::vector ELSE ${e} END`;

type Variant = (db: PgliteDb, tx: Queryable, rs: Row[], model: string) => Promise<number>;

/** Today's statement (import.ts before the bulk path): one JSON parameter a page plus one binary vector a row. */
const jsonInsert: Variant = async (_db, tx, rs, model) => {
  const json = JSON.stringify(rs.map((r, n) => ({
    n, id: r.id, category: r.category, content: r.content, importance: r.importance, day: r.day, staged_model: model, origin: 'import',
    inserted_at: r.at, updated_at: r.at,
  })));
  const values = rs.map((_, i) => `(${i}, $${i + 2}::vector)`).join(', ');
  const res = await tx.query(
    `WITH r AS MATERIALIZED (
       SELECT r.*, CASE WHEN EXISTS (SELECT 1 FROM memories x WHERE x.id = r.id) THEN gen_random_uuid() ELSE r.id END AS new_id
       FROM json_to_recordset($1::json) AS r(n int, id uuid, category text, content text, importance int, day date, staged_model text,
                                             origin text, inserted_at timestamptz, updated_at timestamptz)
     ), ins AS (
       INSERT INTO memories (${COLS})
       SELECT r.new_id, 'bench', r.category, r.content, r.importance, r.day, ${padded('v.e')}, r.staged_model, r.origin, r.inserted_at, r.updated_at
       FROM r LEFT JOIN (VALUES ${values}) AS v(n, e) ON v.n = r.n ORDER BY r.n
     )
     SELECT n FROM r WHERE new_id <> id`,
    [json, ...rs.map((r) => short(r.vec))],
  );
  return res.ms!;
};

/** Binary COPY straight into memories: vectors padded in JavaScript (the column's type checks 1,536 dimensions). */
const copyDirect: Variant = async (db, _tx, rs, model) =>
  (await db.copyFrom(`COPY memories (${COLS}) FROM '/dev/blob' WITH (FORMAT binary)`, copyBinary(rs.map((r) => fields(r, encodeVector(r.vec), model))))).ms!;

/** Binary COPY into an unindexed temporary table (short vectors), timed alone. */
const copyStage: Variant = async (db, tx, rs, model) => {
  await tx.exec(`CREATE TEMP TABLE IF NOT EXISTS bench_stage (n int, id uuid, persona text, category text, content text, importance int, day date,
                   embedding vector, staged_model text, origin text, inserted_at timestamptz, updated_at timestamptz) ON COMMIT DROP`);
  return (await db.copyFrom(`COPY bench_stage (n, ${COLS}) FROM '/dev/blob' WITH (FORMAT binary)`,
    copyBinary(rs.map((r, n) => fields(r, short(r.vec), model, n))))).ms!;
};

/** …then INSERT … SELECT from it into memories, ids this database holds replaced as import does. */
const stageInsert: Variant = async (db, tx, rs, model) => {
  await copyStage(db, tx, rs, model);
  return (await tx.query(
    `WITH r AS MATERIALIZED (
       SELECT s.*, CASE WHEN EXISTS (SELECT 1 FROM memories x WHERE x.id = s.id) THEN gen_random_uuid() ELSE s.id END AS new_id FROM bench_stage s
     ), ins AS (
       INSERT INTO memories (${COLS})
       SELECT r.new_id, r.persona, r.category, r.content, r.importance, r.day, ${padded('r.embedding')}, r.staged_model, r.origin, r.inserted_at, r.updated_at
       FROM r ORDER BY r.n
     )
     SELECT n FROM r WHERE new_id <> id`,
  )).ms!;
};

/** The text-search vector alone: what the generated column computes for each row. */
const tsvectorOnly: Variant = async (_db, tx, rs) =>
  (await tx.query(`SELECT count(setweight(to_tsvector('english', coalesce(c, '')), 'A') || setweight(to_tsvector('english', t), 'B'))
                   FROM unnest($1::text[], $2::text[]) AS u(t, c)`, [rs.map((r) => r.content), rs.map((r) => r.category)])).ms!;

async function main(): Promise<void> {
  console.log(`export-parts — ${ROWS}-row statements into a persona of ${N} memories, median of ${REPS}; load average ${load()}`);
  const core = await makeTestCore();
  const db = core.ctx.db.local!;
  const model = core.ctx.embedder.model();
  const t = performance.now();
  await loadBenchPersona(core, N, 0);
  console.log(`set-up ${((performance.now() - t) / 1000).toFixed(1)} s; load average ${load()}`);
  await new Promise((r) => setTimeout(r, 3000));

  await exportParts(db);
  let seed = 1e7;
  async function time(name: string, fn: Variant, before = ''): Promise<number> {
    const ms: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const rs = rows((seed += ROWS));
      await db.transaction(async (tx) => {
        if (before) await tx.exec(before);
        const c = process.cpuUsage();
        ms.push(await fn(db, tx, rs, model));
        const d = process.cpuUsage(c);
        cpu.push((d.user + d.system) / 1000);
        throw new Rollback();
      }).catch((e) => { if (!(e instanceof Rollback)) throw e; });
    }
    const us = (median(cpu) * 1000) / ROWS;
    console.log(`| ${name} | ${us.toFixed(0)} | ${((median(ms) * 1000) / ROWS).toFixed(0)} |`);
    return us;
  }

  // The first statements after the set-up pay for cold pages and caches: not any variant's cost.
  await time('(warm-up, not a figure)', stageInsert);
  console.log('\n| how a memory row is stored (vector staged: no HNSW work) | CPU µs a row | statement µs a row (worker) |\n|---|---|---|');
  await time('INSERT … json_to_recordset + a binary vector parameter a row (import before)', jsonInsert);
  const direct = await time('binary COPY straight into memories', copyDirect);
  await time('binary COPY into an unindexed temporary table', copyStage);
  await time('INSERT … SELECT from that table (as import did, ids checked)', stageInsert);
  await time('to_tsvector of category + content alone (no insert)', tsvectorOnly);
  await time('INSERT … json_to_recordset, again (order effects)', jsonInsert);
  await time('binary COPY straight into memories, again', copyDirect);

  console.log(`\n| binary COPY into memories without … | CPU µs a row | statement µs a row (worker) |\n|---|---|---|`);
  const without = async (name: string, sql: string) => {
    const us = await time(`${name}`, copyDirect, sql);
    console.log(`|   (CPU saved: ${(direct - us).toFixed(0)} µs a row) | | |`);
  };
  await without('the bm25 index (pg_textsearch)', 'DROP INDEX memories_bm25_idx');
  await without('the GIN full-text index', 'DROP INDEX memories_search_idx');
  await without('the six B-trees besides the key', 'DROP INDEX memories_rank_idx, memories_day_idx, memories_list_idx, memories_day_seq_idx, memories_persona_seq_idx, memories_superseded_by_idx');
  await without('foreign-key and other triggers', 'ALTER TABLE memories DISABLE TRIGGER ALL');
  await without('every index but the key, and triggers',
    'DROP INDEX memories_bm25_idx, memories_search_idx, memories_rank_idx, memories_day_idx, memories_list_idx, memories_day_seq_idx, memories_persona_seq_idx, memories_superseded_by_idx, memories_embedding_idx, memories_embedding_local_idx; ALTER TABLE memories DISABLE TRIGGER ALL');
  // A row that joins the HNSW graph at once (tag set), as a re-embedded or live-written memory does.
  const hnsw: Variant = async (dbx, _tx, rs) =>
    (await dbx.copyFrom(`COPY memories (${COLS.replace('staged_model', 'embedding_model')}) FROM '/dev/blob' WITH (FORMAT binary)`,
      copyBinary(rs.map((r) => fields(r, encodeVector(r.vec), model))))).ms!;
  await time('binary COPY with the vector joining the 512-d HNSW graph at once', hnsw);
  console.log(`\nload average at the end ${load()}`);
  await core.dispose();
}

/** Export: the export's own memory pages (timed as they run), then one page read with each part alone. */
async function exportParts(db: PgliteDb): Promise<void> {
  const orig = db.query.bind(db);
  const pages = { ms: 0, rows: 0, cpu: 0 };
  db.query = (async (sql: string, params: unknown[] = []) => {
    const c = process.cpuUsage();
    const res = await orig(sql, params);
    const d = process.cpuUsage(c);
    if (sql.trimStart().startsWith('SELECT m.id')) {
      pages.ms += res.ms ?? 0;
      pages.rows += res.rows.length;
      pages.cpu += (d.user + d.system) / 1000;
    }
    return res;
  }) as PgliteDb['query'];
  for await (const _ of personaRecords(db, 'bench')) void _;
  db.query = orig;
  console.log(`\n| reading a page of memories (${ROWS} rows) | CPU µs a row | statement µs a row (worker) |\n|---|---|---|`);
  console.log(`| the export's own pages (history check, vector → base64 in SQL, times as text), all ${pages.rows} | ${((pages.cpu * 1000) / pages.rows).toFixed(0)} | ${((pages.ms * 1000) / pages.rows).toFixed(0)} |`);
  const page = `FROM memories m WHERE m.persona = 'bench' AND m.seq > $1::bigint ORDER BY m.seq LIMIT ${ROWS}`;
  const plain = 'm.id, m.category, m.content, m.importance, m.day, m.origin, m.conversation_id, m.seq';
  const variants: [string, string][] = [
    ['plain columns, no vector, times as Postgres gives them', `SELECT ${plain}, m.inserted_at, m.updated_at ${page}`],
    ['… with the two times as text with microseconds (to_char)', `SELECT ${plain},
      to_char(m.inserted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS a, to_char(m.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS b ${page}`],
    ['… with the vector as the file\'s base64, made in SQL', `SELECT ${plain}, CASE WHEN vector_send(m.embedding) IS NOT NULL THEN replace(encode(substring(vector_send(m.embedding) FROM 5 FOR
      ((length(rtrim(substring(vector_send(m.embedding) FROM 5), '\\x00'::bytea)) + 3) / 4) * 4), 'base64'), E'\\n', '') END AS e ${page}`],
    ['… with the vector as pgvector text', `SELECT ${plain}, m.embedding::text AS e ${page}`],
  ];
  for (const [name, sql] of variants) {
    const ms: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const c = process.cpuUsage();
      const r = await db.query(sql, [String((i * ROWS) % Math.max(1, N - ROWS))]);
      const d = process.cpuUsage(c);
      ms.push(r.ms!);
      cpu.push((d.user + d.system) / 1000);
    }
    console.log(`| ${name} | ${((median(cpu) * 1000) / ROWS).toFixed(0)} | ${((median(ms) * 1000) / ROWS).toFixed(0)} |`);
  }
  // The same page through COPY … TO '/dev/blob' in binary: no text per field, the vector's bytes as they are stored.
  const ms: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const c = process.cpuUsage();
    const r = await db.query(`COPY (SELECT ${plain}, m.inserted_at, m.updated_at, vector_send(m.embedding) AS e ${page.replace('$1::bigint', String((i * ROWS) % Math.max(1, N - ROWS)))})
      TO '/dev/blob' WITH (FORMAT binary)`);
    const d = process.cpuUsage(c);
    ms.push(r.ms!);
    cpu.push((d.user + d.system) / 1000);
  }
  console.log(`| binary COPY … TO '/dev/blob' of plain columns + the vector's bytes (decoded in JS: not included) | ${((median(cpu) * 1000) / ROWS).toFixed(0)} | ${((median(ms) * 1000) / ROWS).toFixed(0)} |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
