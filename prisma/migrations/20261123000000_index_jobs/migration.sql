-- Index jobs: the worker's host (PID liveness only on that host) and the
-- interrupted generation a restarted build resumes. "queued" is a status value.
ALTER TABLE "IndexGeneration" ADD COLUMN "workerHost" TEXT;
ALTER TABLE "IndexGeneration" ADD COLUMN "resumeOf" INTEGER;
