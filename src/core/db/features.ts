// What the database under Hearth can do. PGlite ships both extensions; a
// PostgreSQL server may lack either (docs/server-mode.md, issue #20).

export interface DbFeatures {
  /** pgvector: vectors are stored, embedded and compared; without it recall is text-only. */
  readonly vector: boolean;
  /** pg_textsearch's bm25 index; without it BM25 comes from Hearth's own term statistics. */
  readonly bm25: boolean;
}

/** PGlite: both extensions are bundled and loaded. */
export const ALL_FEATURES: DbFeatures = Object.freeze({ vector: true, bm25: true });
