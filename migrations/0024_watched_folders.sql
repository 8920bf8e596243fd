-- Watched folders (docs/watched-folders.md): a persona keeps a folder's documents
-- ingested. A watch names the folder by its real path; `label` starts the
-- source names of its files ("<label>/<path inside the folder>"), unique per
-- persona so two folders of the same name never share a source.

CREATE TABLE knowledge_watches (
  persona     text NOT NULL REFERENCES personas(id) ON DELETE CASCADE,
  folder      text NOT NULL,
  label       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (persona, folder),
  UNIQUE (persona, label)
);

-- One row per document file of a watched folder: what was last ingested
-- (its content hash) and how its latest change went.
CREATE TABLE knowledge_watch_files (
  persona     text NOT NULL,
  folder      text NOT NULL,
  -- inside the folder, '/'-separated
  path        text NOT NULL,
  source      text NOT NULL,
  -- sha256 of the content last ingested; null until one is
  hash        text NULL,
  state       text NOT NULL CHECK (state IN ('pending', 'ingesting', 'ingested', 'error')),
  error       text NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (persona, folder, path),
  FOREIGN KEY (persona, folder) REFERENCES knowledge_watches (persona, folder) ON DELETE CASCADE
);
