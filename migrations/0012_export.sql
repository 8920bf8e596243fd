-- Export reads a persona's memories in pages, in the order they were written
-- (seq), by key: without this index each page sorts the whole persona again,
-- so a 50k-memory export would read the table ~100 times (docs/export.md).
CREATE INDEX memories_persona_seq_idx ON memories (persona, seq);
-- The same for the version history (migration 0006), read in the order it was written.
CREATE INDEX memory_versions_persona_id_idx ON memory_versions (persona, id);
CREATE INDEX user_model_versions_persona_id_idx ON user_model_versions (persona, id);
