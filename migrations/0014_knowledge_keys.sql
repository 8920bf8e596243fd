-- Document recall (docs/ranking.md, "Knowledge"): a chunk is searched by its
-- key — the document's title, the nearest heading and the chunk's normalised
-- text — while `content` stays the text a person reads. Rows written by code
-- that knows no keys (older versions, imports) get their content as key.
ALTER TABLE knowledge_chunks ADD COLUMN search_key text;
UPDATE knowledge_chunks SET search_key = content;
ALTER TABLE knowledge_chunks ALTER COLUMN search_key SET NOT NULL;

CREATE FUNCTION knowledge_chunks_default_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.search_key IS NULL THEN
    NEW.search_key := NEW.content;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER knowledge_chunks_default_key BEFORE INSERT OR UPDATE ON knowledge_chunks
  FOR EACH ROW EXECUTE FUNCTION knowledge_chunks_default_key();

-- The text index reads the key. (A generated column's expression cannot be altered: it is re-created.)
-- hearth:if bm25
DROP INDEX knowledge_bm25_idx;
-- hearth:end
DROP INDEX knowledge_search_idx;
ALTER TABLE knowledge_chunks DROP COLUMN search_vector;
ALTER TABLE knowledge_chunks ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', source), 'A') ||
  setweight(to_tsvector('english', search_key), 'B')
) STORED;
CREATE INDEX knowledge_search_idx ON knowledge_chunks USING gin (search_vector);
-- hearth:if bm25
CREATE INDEX knowledge_bm25_idx ON knowledge_chunks USING bm25 (search_key) WITH (text_config = 'english', b = 0);
-- hearth:end

-- Sentence windows: a few sentences of a chunk each, with their own vector, so a
-- chunk whose one answering sentence sits among unrelated ones still matches
-- the question (a chunk's cosine is its best window's). Offsets point into the
-- chunk's content (the sentence shown highlighted); `page` is where it starts.
-- Vectors as in migrations 0003/0004: vector(1536) inline, the built-in model's
-- 512-d in their own HNSW index, every other model's in a 1536-d one.
CREATE TABLE knowledge_windows (
  chunk_id         uuid NOT NULL REFERENCES knowledge_chunks(id) ON DELETE CASCADE,
  window_index     int NOT NULL,
  persona          text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  start_at         int NOT NULL,
  end_at           int NOT NULL,
  page             int NULL,
  search_key       text NOT NULL,
  embedding        vector(1536) NULL, -- hearth:without vector: embedding        bytea NULL,
  embedding_model  text NULL,
  PRIMARY KEY (chunk_id, window_index)
);
ALTER TABLE knowledge_windows ALTER COLUMN embedding SET STORAGE PLAIN;
ALTER TABLE knowledge_windows SET (toast_tuple_target = 8160);
-- hearth:if vector
CREATE INDEX knowledge_windows_embedding_idx ON knowledge_windows USING hnsw (embedding vector_cosine_ops)
  WHERE embedding_model <> 'local:use-lite-512';
CREATE INDEX knowledge_windows_embedding_local_idx ON knowledge_windows
  USING hnsw ((subvector(embedding, 1, 512)::vector(512)) vector_cosine_ops)
  WHERE embedding_model = 'local:use-lite-512';
-- hearth:end
