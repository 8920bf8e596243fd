-- Recall computes the cosine of a few hundred candidate rows per query. With
-- pgvector's default EXTERNAL storage every 6 kB vector lives in the TOAST
-- table, and each distance costs a TOAST index lookup and four chunk reads
-- (~50 µs a row in PGlite). Stored inline, a row's vector is on its heap
-- page. A 1536-d vector plus a row still fits a page once the table lets
-- tuples grow to a page before other columns are toasted.
-- Existing vectors stay where they are until they are next written.
ALTER TABLE memories ALTER COLUMN embedding SET STORAGE PLAIN;
ALTER TABLE memories SET (toast_tuple_target = 8160);
ALTER TABLE knowledge_chunks ALTER COLUMN embedding SET STORAGE PLAIN;
ALTER TABLE knowledge_chunks SET (toast_tuple_target = 8160);
