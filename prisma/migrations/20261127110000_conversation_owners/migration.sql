-- A conversation belongs to whoever started it (an OIDC subject, a browser, a script's
-- token). Conversations from before have no owner: admins and share links read them.
ALTER TABLE "Session" ADD COLUMN "ownerKey" TEXT;
CREATE INDEX "Session_repositoryId_ownerKey_lastAccessedAt_idx" ON "Session"("repositoryId", "ownerKey", "lastAccessedAt");
