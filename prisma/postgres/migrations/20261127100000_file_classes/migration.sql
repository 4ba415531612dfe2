-- Files carry their class (vendored, generated, minified, documentation) and why, and
-- why a code file was indexed as text only. Generations get the number people read:
-- builds that failed keep their build number but never a generation number. Existing
-- good generations are numbered in the order they were built.
ALTER TABLE "File" ADD COLUMN     "fileClass" TEXT;
ALTER TABLE "File" ADD COLUMN     "classReason" TEXT;
ALTER TABLE "File" ADD COLUMN     "unparsed" TEXT;
ALTER TABLE "IndexGeneration" ADD COLUMN     "serial" INTEGER;
UPDATE "IndexGeneration" SET "serial" = (
  SELECT count(*) FROM "IndexGeneration" g
   WHERE g."repositoryId" = "IndexGeneration"."repositoryId"
     AND g.status IN ('ready', 'superseded', 'deleted')
     AND g.number <= "IndexGeneration".number
) WHERE status IN ('ready', 'superseded', 'deleted');
