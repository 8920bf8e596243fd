-- The built-in model's vectors are 512-d, stored zero-padded to 1536. Indexed
-- as 512-d, their HNSW graph is a third of the size and each distance a third
-- of the work: top-64 at 50k rows went from 18 to 9 ms (bench/recall.ts).
-- Every row is in exactly one of the two indexes, so a write updates one graph.
-- The tag is the one src/core/providers/embeddings/config.ts gives the local model.
-- hearth:if vector
DROP INDEX memories_embedding_idx;
CREATE INDEX memories_embedding_idx ON memories USING hnsw (embedding vector_cosine_ops)
  WHERE embedding_model <> 'local:use-lite-512';
CREATE INDEX memories_embedding_local_idx ON memories USING hnsw ((subvector(embedding, 1, 512)::vector(512)) vector_cosine_ops)
  WHERE embedding_model = 'local:use-lite-512';
DROP INDEX knowledge_embedding_idx;
CREATE INDEX knowledge_embedding_idx ON knowledge_chunks USING hnsw (embedding vector_cosine_ops)
  WHERE embedding_model <> 'local:use-lite-512';
CREATE INDEX knowledge_embedding_local_idx ON knowledge_chunks USING hnsw ((subvector(embedding, 1, 512)::vector(512)) vector_cosine_ops)
  WHERE embedding_model = 'local:use-lite-512';
-- hearth:end
