-- Export reads a persona's memories in pages, in the order they were written
-- (seq), by key: without this index each page sorts the whole persona again,
-- so a 50k-memory export would read the table ~100 times (docs/export.md).
CREATE INDEX memories_persona_seq_idx ON memories (persona, seq);
