-- Recall's exact pass over an import's staged vectors (src/core/recall/staged-pass.ts) reads them in pages
-- in seq order, so that other calls are answered in between: with seq in the index each page walks only its
-- own rows. It replaces the persona-only index of migration 0025.
CREATE INDEX memories_staged_seq_idx ON memories (persona, seq) WHERE staged_model IS NOT NULL;
DROP INDEX memories_staged_idx;
