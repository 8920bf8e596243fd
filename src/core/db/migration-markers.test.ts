import { describe, expect, it } from 'vitest';
import { findMigrationsDir, readMigrations } from './migrate';
import { sqlForFeatures, withoutMarkers } from './migration-markers';

const FILE = [
  'CREATE TABLE t (id int);',
  '-- hearth:if vector',
  'CREATE INDEX t_hnsw ON t USING hnsw (v);',
  '-- hearth:end',
  '-- hearth:unless bm25',
  'CREATE TABLE own_stats (term text);',
  '-- hearth:end',
  '  v vector(3) NULL, -- hearth:without vector: v bytea NULL,',
].join('\n');

describe('migration feature markers', () => {
  it('PGlite (every feature) runs the file as written, without what only a database lacking bm25 needs', () => {
    const sql = sqlForFeatures(FILE, { vector: true, bm25: true });
    expect(sql).toContain('USING hnsw');
    expect(sql).toContain('v vector(3) NULL,');
    expect(sql).not.toContain('own_stats');
  });

  it('a server without pgvector or pg_textsearch gets the replacements and its own statistics', () => {
    const sql = sqlForFeatures(FILE, { vector: false, bm25: false });
    expect(sql).not.toContain('hnsw');
    expect(sql).toContain('  v bytea NULL,');
    expect(sql).toContain('CREATE TABLE own_stats');
  });

  it('a block left open, or nested, stops the migration with the file named', () => {
    expect(() => sqlForFeatures('-- hearth:unless bm25\nSELECT 1;', { vector: true, bm25: true }, '0099_x.sql')).toThrow(/0099_x\.sql.*without hearth:end/);
    expect(() => sqlForFeatures('-- hearth:if vector\n-- hearth:unless bm25\n-- hearth:end\n-- hearth:end', { vector: true, bm25: true })).toThrow(/cannot nest/);
  });

  it('markers do not change a file’s checksum, so databases that ran it before still match', () => {
    expect(withoutMarkers(FILE)).toBe(
      ['CREATE TABLE t (id int);', 'CREATE INDEX t_hnsw ON t USING hnsw (v);', 'CREATE TABLE own_stats (term text);', '  v vector(3) NULL,'].join('\n'),
    );
    // Every shipped migration's marked parts are well formed for every combination of features.
    for (const f of readMigrations(findMigrationsDir())) {
      for (const vector of [true, false]) for (const bm25 of [true, false]) expect(() => sqlForFeatures(f.sql, { vector, bm25 }, f.name)).not.toThrow();
    }
  });
});
