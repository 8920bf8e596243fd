-- A job cut off by a crash or a kill of the whole process is retried without
-- spending one of its attempts (an outage, not the job's failure); such stops
-- are counted here instead, and after several the job is given up with a
-- message (src/core/jobs/store.ts, docs/security.md).
ALTER TABLE jobs ADD COLUMN crashes int NOT NULL DEFAULT 0;
