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

describe('migrations marked after they shipped', () => {
  it('keep the checksums existing databases recorded, and refuse an unknown feature', () => {
    // sha256 of these files as released (main a6d9113), stored in every existing schema_migrations.
    const recorded: Record<string, string> = {
      '0001_init.sql': 'f04edf072c3ddc6c682798d9d2bd06d11835a62bed79f502112585a2ea39fa9f',
      '0004_local_vector_index.sql': '926c5dcbc81ec341d4af656249692838da01b5102fd1b3bac2046c7f99409952',
      '0014_knowledge_keys.sql': '0532317e8a0f89289a1a6c25c77d3eeb666238aea33ca3deb8dba319d4fa53f6',
    };
    const files = new Map(readMigrations(findMigrationsDir()).map((f) => [f.name, f]));
    for (const [name, checksum] of Object.entries(recorded)) {
      expect(files.get(name)!.sql).toContain('-- hearth:if');
      expect(files.get(name)!.checksum).toBe(checksum);
    }
    expect(() => sqlForFeatures('-- hearth:if postgis\n-- hearth:end', { vector: true, bm25: true })).toThrow(/unknown feature/);
  });
});
