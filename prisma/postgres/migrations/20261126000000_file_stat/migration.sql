-- AlterTable
ALTER TABLE "File" ADD COLUMN     "mtimeNs" TEXT;
