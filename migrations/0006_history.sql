-- Facts that stay true (docs/history.md): every version of a memory and of a
-- user-model dimension, who made it and when, and supersession links.
--
-- A version row is the state AFTER one change, valid from `valid_from` until
-- the next change (`valid_to`, null while current). Rows are never updated
-- except to close `valid_to`; they go only when their persona is deleted.
-- There is no foreign key to memories: deleting a memory keeps its history
-- (the last version has change 'delete').

CREATE TABLE memory_versions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  memory_id        uuid NOT NULL,
  persona          text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  version          int NOT NULL CHECK (version >= 1),
  change           text NOT NULL CHECK (change IN ('create', 'update', 'restore', 'supersede', 'unsupersede', 'delete', 'undelete')),
  content          text NOT NULL,
  category         text NULL,
  importance       int NOT NULL CHECK (importance BETWEEN 1 AND 10),
  day              date NOT NULL,
  superseded_by    uuid NULL,
  -- who made this change: user | tool | review | flush | import | mcp:<client>;
  -- null only for rows that existed before history was kept (see backfill below)
  actor            text NULL CHECK (actor IS NULL OR actor IN ('user', 'tool', 'review', 'flush', 'import') OR actor ~ '^mcp:.{1,64}$'),
  conversation_id  uuid NULL REFERENCES conversations(id) ON DELETE SET NULL,
  reason           text NULL,
  valid_from       timestamptz NOT NULL,
  valid_to         timestamptz NULL,
  UNIQUE (memory_id, version)
);
CREATE INDEX memory_versions_activity_idx ON memory_versions (persona, valid_from DESC, id DESC);

CREATE TABLE user_model_versions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  persona          text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  dimension        text NOT NULL,
  version          int NOT NULL CHECK (version >= 1),
  change           text NOT NULL CHECK (change IN ('upsert', 'restore', 'delete')),
  -- null content and confidence: the dimension was deleted by this change
  content          text NULL,
  confidence       int NULL CHECK (confidence IS NULL OR confidence BETWEEN 1 AND 10),
  actor            text NULL CHECK (actor IS NULL OR actor IN ('user', 'tool', 'review', 'flush', 'import') OR actor ~ '^mcp:.{1,64}$'),
  conversation_id  uuid NULL REFERENCES conversations(id) ON DELETE SET NULL,
  reason           text NULL,
  valid_from       timestamptz NOT NULL,
  valid_to         timestamptz NULL,
  UNIQUE (persona, dimension, version)
);
CREATE INDEX user_model_versions_activity_idx ON user_model_versions (persona, valid_from DESC, id DESC);

-- Supersession: the newer memory that replaces this one. The row is kept;
-- recall and the top-20 block leave it out. Deleting the newer memory makes
-- the older one current again.
ALTER TABLE memories ADD COLUMN superseded_by uuid NULL REFERENCES memories(id) ON DELETE SET NULL;
ALTER TABLE memories ADD COLUMN superseded_at timestamptz NULL;
ALTER TABLE memories ADD CONSTRAINT memories_not_self_superseded CHECK (superseded_by IS NULL OR superseded_by <> id);
CREATE INDEX memories_superseded_by_idx ON memories (superseded_by) WHERE superseded_by IS NOT NULL;

-- What exists today becomes version 1. The actor of a memory follows from its
-- origin; a user-model row's author was never recorded, so it stays null.
INSERT INTO memory_versions (memory_id, persona, version, change, content, category, importance, day, actor, conversation_id, valid_from)
SELECT id, persona, 1, 'create', content, category, importance, day,
       CASE origin WHEN 'manual' THEN 'user' WHEN 'explicit' THEN 'tool' ELSE origin END,
       conversation_id, updated_at
FROM memories;

INSERT INTO user_model_versions (persona, dimension, version, change, content, confidence, valid_from)
SELECT persona, dimension, 1, 'upsert', content, confidence, updated_at FROM user_models;
