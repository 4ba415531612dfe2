-- AlterTable
ALTER TABLE "File" ADD COLUMN     "facts" TEXT NOT NULL DEFAULT '{}';

