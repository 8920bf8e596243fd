-- Several conversations per persona (issue #17): the persona's "current" conversation is
-- the one used most recently; each keeps its own summary and memory snapshot.
ALTER TABLE conversations DROP CONSTRAINT conversations_persona_key;
ALTER TABLE conversations ADD COLUMN title text NOT NULL DEFAULT '';
CREATE INDEX conversations_persona_recent_idx ON conversations (persona, updated_at DESC, created_at DESC);
