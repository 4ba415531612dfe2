-- A conversation belongs to whoever started it (an OIDC subject, a browser, a script's
-- token). Conversations from before have no owner: admins and share links read them.
ALTER TABLE "Session" ADD COLUMN     "ownerKey" TEXT;
CREATE INDEX "Session_repositoryId_ownerKey_lastAccessedAt_idx" ON "Session"("repositoryId", "ownerKey", "lastAccessedAt");

-- Rate-limit counters shared by every web instance (rate-limiter-flexible's PostgreSQL
-- store: key, points used, expiry in ms). Not a Prisma model: only the limiter reads it.
CREATE TABLE IF NOT EXISTS "RateLimit" (
    "key" VARCHAR(255) PRIMARY KEY,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT
);
