-- Recall reads the vectors an import staged (migrations/0017) exactly until
-- they join their HNSW graph, a page of rows by seq at a time
-- (docs/import-at-scale.md): this finds a persona's staged rows in that order
-- without reading the rest of its memories.
CREATE INDEX memories_staged_idx ON memories (persona, seq) WHERE staged_model IS NOT NULL;
