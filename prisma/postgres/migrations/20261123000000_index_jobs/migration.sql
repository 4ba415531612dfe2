-- AlterTable
ALTER TABLE "IndexGeneration" ADD COLUMN     "resumeOf" INTEGER,
ADD COLUMN     "workerHost" TEXT;

