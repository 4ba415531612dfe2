-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_File" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "generationId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "lines" INTEGER NOT NULL,
    "imports" TEXT NOT NULL DEFAULT '[]',
    "parseErrors" INTEGER NOT NULL DEFAULT 0,
    "facts" TEXT NOT NULL DEFAULT '{}',
    CONSTRAINT "File_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "IndexGeneration" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_File" ("generationId", "hash", "id", "imports", "kind", "language", "lines", "parseErrors", "path", "size") SELECT "generationId", "hash", "id", "imports", "kind", "language", "lines", "parseErrors", "path", "size" FROM "File";
DROP TABLE "File";
ALTER TABLE "new_File" RENAME TO "File";
CREATE INDEX "File_generationId_language_idx" ON "File"("generationId", "language");
CREATE UNIQUE INDEX "File_generationId_path_key" ON "File"("generationId", "path");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

