-- The persona's trash (docs/trash.md): a deleted memory, user-model dimension
-- or knowledge source leaves its live tables and is kept here whole, row for
-- row, until it is restored, emptied or purged after `trashDays`.
--
-- An item is a header (what it was, when it went) and the rows it took with
-- it, each kept as the jsonb of the live row (vectors included), in the order
-- they go back in. Live reads never see the trash: they read the live tables.

CREATE TABLE trash_items (
  -- a memory keeps its own id here, so its history and Activity rows find it
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  persona     text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('memory', 'user_model', 'knowledge_source')),
  -- the memory id, the dimension or the source name
  item_key    text NOT NULL,
  -- what a person reads in the Trash view: the memory's text, the dimension, the file name
  label       text NOT NULL,
  -- what the item was linked to when it went (a memory: the ids it superseded)
  links       jsonb NOT NULL DEFAULT '{}',
  deleted_at  timestamptz NOT NULL,
  deleted_by  text NULL
);
CREATE INDEX trash_items_persona_idx ON trash_items (persona, deleted_at DESC, id);
CREATE INDEX trash_items_age_idx ON trash_items (deleted_at);

CREATE TABLE trash_rows (
  item_id  uuid NOT NULL REFERENCES trash_items(id) ON DELETE CASCADE,
  seq      int NOT NULL,
  tbl      text NOT NULL CHECK (tbl IN ('memories', 'memory_not_duplicates', 'user_models', 'knowledge_sources', 'knowledge_chunks', 'knowledge_windows')),
  row      jsonb NOT NULL,
  PRIMARY KEY (item_id, seq)
);

-- The purge of items older than `trashDays` runs as a job.
ALTER TABLE jobs DROP CONSTRAINT jobs_queue_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_queue_check CHECK (queue IN ('embeddings', 'ingest', 'memory_review', 'compaction', 'trash_purge'));
