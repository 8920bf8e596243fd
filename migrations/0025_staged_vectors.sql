-- Recall reads the vectors an import staged (migrations/0017) exactly until
-- they join their HNSW graph (docs/import-at-scale.md): this finds a persona's
-- staged rows without reading the rest of its memories.
CREATE INDEX memories_staged_idx ON memories (persona) WHERE staged_model IS NOT NULL;
