-- Pairs of memories the person marked "not duplicates" in Tidy up
-- (docs/duplicates.md): never offered as a group again. Stored once per pair,
-- the smaller id first; gone with either memory.
CREATE TABLE memory_not_duplicates (
  a          uuid NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  b          uuid NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
  persona    text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (a, b),
  CHECK (a < b)
);
CREATE INDEX memory_not_duplicates_persona_idx ON memory_not_duplicates (persona);
CREATE INDEX memory_not_duplicates_b_idx ON memory_not_duplicates (b);
