-- The whole-file lexical index: each file row's length in words and the counts of its
-- words (keys salted per repository), for BM25 over whole files. Existing file rows
-- have none; the index format version that came with this makes their next build
-- write them.
ALTER TABLE "File" ADD COLUMN "words" INTEGER NOT NULL DEFAULT 0;
CREATE TABLE "FileTerm" (
    "fileId" INTEGER NOT NULL,
    "term" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("fileId", "term")
);
CREATE INDEX "FileTerm_term_fileId_count_idx" ON "FileTerm"("term", "fileId", "count");
