-- Hearth schema (SPEC §2). Forward-only: later changes go in new numbered files.
-- hearth:if vector
CREATE EXTENSION IF NOT EXISTS vector;
-- hearth:end
-- hearth:if bm25
CREATE EXTENSION IF NOT EXISTS pg_textsearch;
-- hearth:end

CREATE TABLE personas (
  id          text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
  name        text NOT NULL CHECK (length(btrim(name)) > 0),
  created_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO personas (id, name) VALUES ('main', 'main');

-- One canonical conversation per persona.
CREATE TABLE conversations (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  persona                text NOT NULL UNIQUE REFERENCES personas(id) ON DELETE CASCADE,
  summary                text NOT NULL DEFAULT '',
  memory_snapshot        text NULL,
  user_msgs_since_nudge  int NOT NULL DEFAULT 0,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE messages (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  conversation_id  uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  role             text NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
  content          text NOT NULL DEFAULT '',
  tool_calls       jsonb NULL,
  tool_call_id     text NULL,
  memory_ids       jsonb NULL,
  folded           boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX messages_conversation_idx ON messages (conversation_id, id);

CREATE TABLE memories (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  persona          text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  category         text NULL,
  content          text NOT NULL CHECK (length(btrim(content)) > 0),
  importance       int NOT NULL DEFAULT 5 CHECK (importance BETWEEN 1 AND 10),
  day              date NOT NULL DEFAULT current_date,
  embedding        vector(1536) NULL, -- hearth:without vector: embedding        bytea NULL,
  embedding_model  text NULL,
  embedding_error  text NULL,
  search_vector    tsvector GENERATED ALWAYS AS (
                     setweight(to_tsvector('english', coalesce(category, '')), 'A') ||
                     setweight(to_tsvector('english', content), 'B')
                   ) STORED,
  origin           text NOT NULL DEFAULT 'manual' CHECK (origin IN ('explicit', 'review', 'flush', 'manual', 'import')),
  conversation_id  uuid NULL REFERENCES conversations(id) ON DELETE SET NULL,
  inserted_at      timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memories_search_idx ON memories USING gin (search_vector);
-- hearth:if vector
CREATE INDEX memories_embedding_idx ON memories USING hnsw (embedding vector_cosine_ops);
-- hearth:end
CREATE INDEX memories_rank_idx ON memories (persona, importance, inserted_at);
CREATE INDEX memories_day_idx ON memories (day);
CREATE INDEX memories_list_idx ON memories (persona, day DESC, inserted_at DESC, id DESC);
-- BM25 with no length normalisation (b = 0): measured best on conversational turns (STACK-FACTS.md).
-- hearth:if bm25
CREATE INDEX memories_bm25_idx ON memories USING bm25 (content) WITH (text_config = 'english', b = 0);
-- hearth:end

CREATE TABLE user_models (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  persona      text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  dimension    text NOT NULL CHECK (length(btrim(dimension)) > 0),
  content      text NOT NULL,
  confidence   int NOT NULL DEFAULT 5 CHECK (confidence BETWEEN 1 AND 10),
  inserted_at  timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (persona, dimension)
);

-- One row per ingested document: what chunks alone cannot tell (type, size, pages).
CREATE TABLE knowledge_sources (
  persona      text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  source       text NOT NULL,
  kind         text NULL,
  bytes        bigint NULL,
  pages        int NULL,
  ingested_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (persona, source)
);

CREATE TABLE knowledge_chunks (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  persona          text NOT NULL DEFAULT 'main' REFERENCES personas(id) ON DELETE CASCADE,
  source           text NOT NULL,
  chunk_index      int NOT NULL,
  content          text NOT NULL,
  page_from        int NULL,
  page_to          int NULL,
  embedding        vector(1536) NULL, -- hearth:without vector: embedding        bytea NULL,
  embedding_model  text NULL,
  embedding_error  text NULL,
  search_vector    tsvector GENERATED ALWAYS AS (
                     setweight(to_tsvector('english', source), 'A') ||
                     setweight(to_tsvector('english', content), 'B')
                   ) STORED,
  inserted_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (persona, source, chunk_index)
);
CREATE INDEX knowledge_search_idx ON knowledge_chunks USING gin (search_vector);
-- hearth:if vector
CREATE INDEX knowledge_embedding_idx ON knowledge_chunks USING hnsw (embedding vector_cosine_ops);
-- hearth:end
-- hearth:if bm25
CREATE INDEX knowledge_bm25_idx ON knowledge_chunks USING bm25 (content) WITH (text_config = 'english', b = 0);
-- hearth:end

-- The durable job queue.
CREATE TABLE jobs (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue         text NOT NULL CHECK (queue IN ('embeddings', 'ingest', 'memory_review', 'compaction')),
  persona       text NULL REFERENCES personas(id) ON DELETE CASCADE,
  args          jsonb NOT NULL DEFAULT '{}',
  state         text NOT NULL DEFAULT 'available'
                  CHECK (state IN ('available', 'running', 'completed', 'retryable', 'discarded', 'cancelled')),
  attempt       int NOT NULL DEFAULT 0,
  max_attempts  int NOT NULL DEFAULT 6,
  run_at        timestamptz NOT NULL DEFAULT now(),
  last_error    text NULL,
  errors        jsonb NOT NULL DEFAULT '[]',
  progress      jsonb NULL,
  inserted_at   timestamptz NOT NULL DEFAULT now(),
  attempted_at  timestamptz NULL,
  completed_at  timestamptz NULL
);
CREATE INDEX jobs_fetch_idx ON jobs (queue, state, run_at);
CREATE INDEX jobs_persona_idx ON jobs (persona);

-- Non-secret settings only: API keys never enter the database.
CREATE TABLE settings (
  key    text PRIMARY KEY,
  value  jsonb NOT NULL
);
