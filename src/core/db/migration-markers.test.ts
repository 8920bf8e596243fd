import { describe, expect, it } from 'vitest';
import { ALL_FEATURES } from './features';
import { findMigrationsDir, readMigrations } from './migrate';
import { sqlForFeatures, withoutMarkers } from './migration-markers';

const MARKED = [
  '-- hearth:if vector',
  'CREATE EXTENSION IF NOT EXISTS vector;',
  '-- hearth:end',
  'CREATE TABLE t (',
  '  id int,',
  '  embedding        vector(1536) NULL, -- hearth:without vector: embedding        bytea NULL,',
  '  body text',
  ');',
  '-- hearth:if bm25',
  'CREATE INDEX t_bm25 ON t USING bm25 (body);',
  '-- hearth:end',
  '',
].join('\n');

describe('migration markers', () => {
  it('run everything where both extensions exist, exactly as the file was before it was marked', () => {
    const before = ['CREATE EXTENSION IF NOT EXISTS vector;', 'CREATE TABLE t (', '  id int,', '  embedding        vector(1536) NULL,', '  body text', ');', 'CREATE INDEX t_bm25 ON t USING bm25 (body);', ''].join('\n');
    expect(withoutMarkers(MARKED)).toBe(before);
    expect(sqlForFeatures(MARKED, ALL_FEATURES)).toBe(before);
  });

  it('leave out what needs a missing extension and keep the vector column as bytea', () => {
    const textOnly = sqlForFeatures(MARKED, { vector: false, bm25: false });
    expect(textOnly).not.toMatch(/vector\(|EXTENSION|bm25/);
    expect(textOnly).toContain('  embedding        bytea NULL,');
    expect(sqlForFeatures(MARKED, { vector: true, bm25: false })).toContain('vector(1536)');
  });

  it('refuse unbalanced or unknown markers', () => {
    expect(() => sqlForFeatures('-- hearth:if vector\nSELECT 1;', ALL_FEATURES)).toThrow(/without hearth:end/);
    expect(() => sqlForFeatures('-- hearth:end', ALL_FEATURES)).toThrow(/without hearth:if/);
    expect(() => sqlForFeatures('-- hearth:if postgis\n-- hearth:end', ALL_FEATURES)).toThrow(/unknown feature/);
  });

  it('keep the checksums existing databases recorded before the markers were added', () => {
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
  });
});
