// The cluster's own bookkeeping files, checked before PGlite opens them
// (docs/data-safety.md, "Refusals at start"). PGlite reports damage to any of
// them only as "PGlite failed to initialize properly", an aborted WebAssembly
// run, or — with the commit log zeroed — as migrations failing over a schema
// that reads as never committed. Each check here names the file in words.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

/** CRC-32C (Castagnoli), the checksum Postgres stores in pg_control and the relation maps. */
export function crc32c(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * pg_control ends its data with a CRC-32C of everything before it. Where that
 * is depends on the Postgres version (292 bytes in 18), so every aligned
 * offset in the first kilobyte is tried: any one matching means the file is
 * whole (a damaged file matches one by chance about once in 16 million).
 */
function controlChecksumMatches(file: Buffer): boolean {
  for (let at = 16; at + 4 <= Math.min(file.length, 1024); at += 4) {
    if (crc32c(file.subarray(0, at)) === file.readUInt32LE(at)) return true;
  }
  return false;
}

/** Postgres' RelMapFile: magic 0x592717, 64 mappings, CRC-32C over the 520 bytes before it. */
const RELMAP_SIZE = 524;
const RELMAP_MAGIC = 0x592717;

function relationMapProblem(path: string, label: string): string | null {
  if (!existsSync(path)) return `its relation map (${label}) is missing`;
  const map = readFileSync(path);
  if (map.length !== RELMAP_SIZE || map.readUInt32LE(0) !== RELMAP_MAGIC || crc32c(map.subarray(0, RELMAP_SIZE - 4)) !== map.readUInt32LE(RELMAP_SIZE - 4)) {
    return `its relation map (${label}) is damaged (its checksum does not match)`;
  }
  return null;
}

/** template1, template0 and postgres (the database Hearth's tables are in): fixed ids since Postgres 15. */
const DATABASES: [oid: string, name: string][] = [
  ['1', 'template1'],
  ['4', 'template0'],
  ['5', 'postgres'],
];
const WAL_SEGMENT = /^[0-9A-F]{24}$/;
const XACT_SEGMENT = /^[0-9A-F]{4,}$/;

/**
 * The first problem found with the cluster's bookkeeping files, in words, or
 * null. Called only on a folder that holds PG_VERSION and a full-size
 * pg_control (data-folder.ts checks those first).
 */
export function clusterFileProblem(pgdata: string): string | null {
  if (!controlChecksumMatches(readFileSync(join(pgdata, 'global', 'pg_control')))) {
    return 'its control file (global/pg_control) is damaged (its checksum does not match)';
  }
  const globalMap = relationMapProblem(join(pgdata, 'global', 'pg_filenode.map'), 'global/pg_filenode.map');
  if (globalMap) return globalMap;
  for (const [oid, name] of DATABASES) {
    const dir = join(pgdata, 'base', oid);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return `the folder of its database "${name}" (base/${oid}) is missing`;
    const map = relationMapProblem(join(dir, 'pg_filenode.map'), `base/${oid}/pg_filenode.map`);
    if (map) return map;
  }
  const xactDir = join(pgdata, 'pg_xact');
  const xact = existsSync(xactDir) ? readdirSync(xactDir).filter((n) => XACT_SEGMENT.test(n)).sort() : [];
  if (!xact.length) return 'its commit log (pg_xact) is missing: which changes were committed cannot be told';
  // The oldest segment always holds committed transactions (initdb's, or those since the last freeze):
  // all zeros there reads as "nothing ever committed", and every table looks empty.
  const oldest = readFileSync(join(xactDir, xact[0]!));
  if (oldest.length === 0 || oldest.every((b) => b === 0)) return `its commit log (pg_xact/${xact[0]}) is blank: which changes were committed cannot be told`;
  const walDir = join(pgdata, 'pg_wal');
  if (!existsSync(walDir) || !readdirSync(walDir).some((n) => WAL_SEGMENT.test(n))) {
    return 'its write-ahead log (pg_wal) is empty: the last changes and the point to start from are gone';
  }
  return null;
}
