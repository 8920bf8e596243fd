-- Insertion order of memories, exact even for rows written in one statement
-- (inserted_at is the transaction's time). Recall's context ranking reads a
-- memory's neighbours of the same day in this order.
ALTER TABLE memories ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX memories_day_seq_idx ON memories (persona, day, seq);
