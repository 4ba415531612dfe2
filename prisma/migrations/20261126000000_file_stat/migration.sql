-- A file row records the modification time at which its bytes were last hashed, so a
-- re-index skips reading files whose size and time are unchanged. Existing rows have
-- none: their files are read and hashed once more, and the time is recorded then.
ALTER TABLE "File" ADD COLUMN "mtimeNs" TEXT;
