// PostgreSQL's binary COPY format, written in JavaScript, for import's bulk
// path (docs/export.md, "Import"): rows go to the database as one blob read by
// `COPY … FROM '/dev/blob' (FORMAT binary)`, with no statement text or
// parameter per row, and a vector crosses in pgvector's own binary form (no
// float text to parse). Layout: the 19-byte header, then per row a field count
// and each field as a 32-bit length (-1 for NULL) and its bytes in the
// column type's binary ("send") form; then -1 as the trailer.

/** A field's binary form; the column decides which one is right. */
export type Field =
  | { t: 'text'; v: string | null }
  | { t: 'int4'; v: number | null }
  | { t: 'uuid'; v: string | null }
  | { t: 'date'; v: string | null }
  | { t: 'timestamptz'; v: string | null }
  | { t: 'bytes'; v: Uint8Array | null };

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Days and microseconds count from 2000-01-01 in Postgres' binary dates and times. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The file's times (format.ts): UTC, up to six fraction digits. */
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/;

/** Like Date.UTC, but a year below 100 stays that year (Date.UTC would read 25 as 1925). */
function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, 0);
  return t.getTime();
}

function dayNumber(day: string): number {
  const m = DAY.exec(day);
  if (!m) throw new Error(`"${day}" is not a day`);
  const ms = utc(Number(m[1]), Number(m[2]), Number(m[3]));
  // Dates roll 2025-02-30 over into March; Postgres would refuse it, so this does too.
  if (new Date(ms).toISOString().slice(0, 10) !== day) throw new Error(`"${day}" is not a day`);
  return (ms - PG_EPOCH_MS) / DAY_MS;
}

function microseconds(time: string): bigint {
  const m = TIME.exec(time);
  if (!m) throw new Error(`"${time}" is not a UTC time`);
  const ms = utc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (new Date(ms).toISOString().slice(0, 19) !== time.slice(0, 19)) throw new Error(`"${time}" is not a UTC time`);
  const fraction = BigInt((m[7] ?? '').padEnd(6, '0'));
  return BigInt(ms - PG_EPOCH_MS) * 1000n + fraction;
}

function uuidBytes(id: string): Buffer {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`"${id}" is not a uuid`);
  return Buffer.from(hex, 'hex');
}

function encode(f: Field): Buffer | null {
  if (f.v === null) return null;
  switch (f.t) {
    case 'text':
      return Buffer.from(f.v, 'utf8');
    case 'int4': {
      const b = Buffer.allocUnsafe(4);
      b.writeInt32BE(f.v);
      return b;
    }
    case 'uuid':
      return uuidBytes(f.v);
    case 'date': {
      const b = Buffer.allocUnsafe(4);
      b.writeInt32BE(dayNumber(f.v));
      return b;
    }
    case 'timestamptz': {
      const b = Buffer.allocUnsafe(8);
      b.writeBigInt64BE(microseconds(f.v));
      return b;
    }
    case 'bytes':
      return Buffer.from(f.v.buffer, f.v.byteOffset, f.v.byteLength);
  }
}

/** Rows (each the same columns, in the COPY statement's order) as one binary COPY blob. */
export function copyBinary(rows: Field[][]): Uint8Array {
  const parts: Buffer[] = [SIGNATURE, Buffer.alloc(8)]; // flags 0, no header extension
  for (const row of rows) {
    const head = Buffer.allocUnsafe(2);
    head.writeInt16BE(row.length);
    parts.push(head);
    for (const f of row) {
      const bytes = encode(f);
      const len = Buffer.allocUnsafe(4);
      len.writeInt32BE(bytes === null ? -1 : bytes.length);
      parts.push(len);
      if (bytes) parts.push(bytes);
    }
  }
  const trailer = Buffer.allocUnsafe(2);
  trailer.writeInt16BE(-1);
  parts.push(trailer);
  return Buffer.concat(parts);
}
