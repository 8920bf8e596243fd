-- BM25's term statistics kept by Hearth itself, for databases without
-- pg_textsearch (docs/ranking.md, "Without pg_textsearch"): for each table
-- whose text BM25 ranks, how many rows hold each lexeme in that text (df), and
-- under the term '' how many rows hold any lexeme at all (N), counted as
-- pg_textsearch counts them. The text is weight B of `search_vector`: a
-- memory's content, a chunk's key — what the bm25 indexes read. Kept in the
-- writing statement's own transaction, so every reader's snapshot sees counts
-- that match the rows it sees, with several devices writing at once.
-- Only where pg_textsearch is missing: PGlite and servers with it rank from
-- the bm25 index, and the triggers would double the cost of a single write
-- there (47 vs 22 ms p50 at load 22, bench/term-stats-writes.ts).
-- hearth:unless bm25
CREATE TABLE bm25_stats (
  tbl   text NOT NULL,
  term  text NOT NULL,
  docs  bigint NOT NULL,
  PRIMARY KEY (tbl, term)
);

-- The distinct lexemes of a row's indexed text, plus '' once when there is any.
CREATE FUNCTION bm25_terms(v tsvector) RETURNS SETOF text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT u.lexeme FROM unnest(ts_filter(v, '{b}')) AS u
  UNION ALL
  SELECT '' WHERE ts_filter(v, '{b}') <> ''::tsvector
$$;

-- One upsert per changed term and statement (a bulk import or a cascade counts
-- once per term, not once per row). Terms are locked in one order, '' first,
-- so two writers cannot deadlock on these rows: the second waits at its first
-- term. An UPDATE that leaves the text alone changes no count and locks nothing.
CREATE FUNCTION bm25_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO bm25_stats AS s (tbl, term, docs)
      SELECT TG_TABLE_NAME, t.term, count(*) FROM new_rows r CROSS JOIN LATERAL bm25_terms(r.search_vector) AS t(term)
      GROUP BY t.term ORDER BY t.term COLLATE "C"
      ON CONFLICT (tbl, term) DO UPDATE SET docs = s.docs + excluded.docs;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO bm25_stats AS s (tbl, term, docs)
      SELECT TG_TABLE_NAME, t.term, -count(*) FROM old_rows r CROSS JOIN LATERAL bm25_terms(r.search_vector) AS t(term)
      GROUP BY t.term ORDER BY t.term COLLATE "C"
      ON CONFLICT (tbl, term) DO UPDATE SET docs = s.docs + excluded.docs;
  ELSE
    INSERT INTO bm25_stats AS s (tbl, term, docs)
      SELECT TG_TABLE_NAME, t.term, sum(x.sign) FROM (
        SELECT r.search_vector, 1 AS sign FROM new_rows r
        UNION ALL
        SELECT r.search_vector, -1 FROM old_rows r
      ) AS x CROSS JOIN LATERAL bm25_terms(x.search_vector) AS t(term)
      GROUP BY t.term HAVING sum(x.sign) <> 0 ORDER BY t.term COLLATE "C"
      ON CONFLICT (tbl, term) DO UPDATE SET docs = s.docs + excluded.docs;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER memories_bm25_stats_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_stats_apply();
CREATE TRIGGER memories_bm25_stats_update AFTER UPDATE ON memories
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_stats_apply();
CREATE TRIGGER memories_bm25_stats_delete AFTER DELETE ON memories
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_stats_apply();
CREATE TRIGGER knowledge_chunks_bm25_stats_insert AFTER INSERT ON knowledge_chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_stats_apply();
CREATE TRIGGER knowledge_chunks_bm25_stats_update AFTER UPDATE ON knowledge_chunks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_stats_apply();
CREATE TRIGGER knowledge_chunks_bm25_stats_delete AFTER DELETE ON knowledge_chunks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bm25_stats_apply();

-- The rows already there.
INSERT INTO bm25_stats (tbl, term, docs)
  SELECT 'memories', t.term, count(*) FROM memories m CROSS JOIN LATERAL bm25_terms(m.search_vector) AS t(term) GROUP BY t.term;
INSERT INTO bm25_stats (tbl, term, docs)
  SELECT 'knowledge_chunks', t.term, count(*) FROM knowledge_chunks k CROSS JOIN LATERAL bm25_terms(k.search_vector) AS t(term) GROUP BY t.term;
-- hearth:end
