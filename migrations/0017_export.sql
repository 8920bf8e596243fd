-- Import without blocking (docs/export.md): a .hearth file is written into a
-- persona that stays hidden (lists, lookups, recall, MCP) until its last row
-- is in; many short statements instead of one long transaction. A crash or a
-- failure leaves only a hidden persona, which is removed (at the latest at the
-- next start), so the user never sees half an import.
ALTER TABLE personas ADD COLUMN importing boolean NOT NULL DEFAULT false;

-- Vectors from the file arrive with embedding_model NULL, so they join no
-- HNSW graph on insert (both partial indexes need a tag, migrations/0004);
-- their tag waits here. Inserting into HNSW costs milliseconds a row, so the
-- embeddings queue moves a staged vector into its graph a few rows at a time
-- (src/core/embeddings/staged.ts) instead of the import holding the database.
ALTER TABLE memories ADD COLUMN staged_model text NULL;
ALTER TABLE knowledge_chunks ADD COLUMN staged_model text NULL;
