// SQL pieces shared by the stores' bulk reads and writes of a persona file
// (docs/export.md): exact timestamps as text, vectors in the file's base64
// form, and a page of rows crossing as one JSON parameter plus one binary
// parameter per vector. Each store keeps its own statements; these are only
// the parts every one of them spells the same way.
import type { Queryable } from './client';
import { DB_DIMENSIONS } from './vector';

/** Timestamps as text with microseconds: a JS Date would drop them and the round trip would not be exact. */
export const ts = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A vector column's bytes (vector_send). A server without pgvector has bytea
 * embedding columns that are always NULL and no vector_send
 * (docs/server-mode.md): its rows carry no vectors.
 */
export const vectorSend = (q: Queryable, column: string) => (q.features?.vector === false ? 'NULL::bytea' : `vector_send(${column})`);

/**
 * The file's vector format (base64 of the big-endian float32s, no header,
 * trailing zero components dropped), made in SQL from vector_send's bytes
 * (`send`, computed once per row): handing 6 kB of bytea per row to
 * JavaScript and encoding it there cost ~5× more.
 * PG's base64 breaks lines every 76 characters; they are removed.
 */
export const vectorBase64 = (send: string) => `CASE WHEN ${send} IS NOT NULL THEN replace(encode(substring(${send} FROM 5 FOR
  ((length(rtrim(substring(${send} FROM 5), '\\x00'::bytea)) + 3) / 4) * 4), 'base64'), E'\\n', '') END`;

/**
 * Pads a staged vector (the file holds only its components) to the
 * database's dimensions with zeros, which leave cosine distance unchanged.
 */
const padded = (e: string) =>
  `CASE WHEN vector_dims(${e}) < ${DB_DIMENSIONS} THEN ${e} || array_fill(0::real, ARRAY[${DB_DIMENSIONS} - vector_dims(${e})])::vector ELSE ${e} END`;

/** A vector as the file gives it (only its components) padded with zeros to the column's dimensions. */
export function padVector(short: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + 4 * DB_DIMENSIONS);
  out.set(short);
  new DataView(out.buffer).setInt16(0, DB_DIMENSIONS);
  return out;
}

/**
 * A page of rows crosses to the database as one JSON parameter, unpacked by
 * json_to_recordset, plus one binary parameter per vector: a statement's cost
 * no longer grows with a dozen parameters a row, and its text is the same
 * every time (docs/export.md, "Where the time goes"). `n` is each row's place
 * in the page; vectors join on it.
 */
export function vectorJoin(vectors: (Uint8Array | null)[], first: number): { sql: string; params: Uint8Array[]; value: string } {
  const rows: string[] = [];
  const params: Uint8Array[] = [];
  vectors.forEach((v, i) => {
    if (v === null) return;
    params.push(v);
    rows.push(`(${i}, $${first + params.length - 1}::vector)`);
  });
  // Without vectors the statement names no vector type or function (a server without pgvector has none).
  return rows.length
    ? { sql: `LEFT JOIN (VALUES ${rows.join(', ')}) AS v(n, e) ON v.n = r.n`, params, value: padded('v.e') }
    : { sql: '', params, value: 'NULL' };
}

/** Rows of one page whose id was taken in this database: their place in the page and the id they got. */
export type Remapped = { n: number; id: string };

/**
 * What a bulk statement gives back, with how long it ran in the database
 * (DbQueryResult's `ms`): the pacer that sizes the pages learns from it
 * (db/pace.ts), not from time spent queued behind other calls.
 */
export type Timed<T> = T & { ms?: number };

/**
 * A page's statement, its parameters already made: a writer builds the next
 * page (JSON, binary rows) while the statement before it still runs, then
 * sends it once that one is done (docs/export.md, "Where the time goes").
 */
export type PreparedPage<T> = (q: Queryable) => Promise<Timed<T>>;

/** One page of a keyed read: the rows after `after` (the last row of the page before, or null), at most `limit`. */
export type PageReader<R> = (after: R | null, limit: number) => Promise<Timed<{ rows: R[] }>>;
