-- A running job's lease (docs/server-mode.md, "Jobs on a shared server"). On a
-- PostgreSQL server several Hearths take jobs from one table, and one that
-- starts cannot tell a job another running Hearth holds from one a stopped
-- Hearth left behind: the holder renews the lease while the job runs, and only
-- a job whose lease ran out is put back in line. PGlite has one owner, which
-- puts back every running job it finds at start, as before; it sets no lease.
ALTER TABLE jobs ADD COLUMN lease_until timestamptz NULL;
