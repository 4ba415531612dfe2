/**
 * Runs before every test file: no test may reach a language-model or embedding
 * provider, whatever the developer's shell exports. Tests that script a model inject
 * it explicitly; child processes inherit this cleaned environment.
 */
for (const key of [
  "LLM_PROVIDER",
  "LLM_MODEL",
  "LLM_BASE_URL",
  "LLM_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "EMBEDDING_PROVIDER",
  "EMBEDDING_MODEL",
  "EMBEDDING_DIMENSIONS",
]) {
  delete process.env[key];
}

// Route tests run as one person on their own machine unless they choose a mode; the
// request log stays out of test output (lib/auth/request-log.test.ts turns it on).
process.env.WAYFINDER_ACCESS = "open";
process.env.WAYFINDER_LOG_LEVEL = "warn";
// Tests send many requests on purpose; lib/auth/rate-limit.test.ts sets its own limits.
process.env.WAYFINDER_RATE_QUESTIONS = "100000";
process.env.WAYFINDER_RATE_BUILDS = "100000";
for (const key of [
  "WAYFINDER_ACCESS_TOKEN",
  "WAYFINDER_REPO_MANAGERS",
  "WAYFINDER_PUBLIC_SHARES",
  "WAYFINDER_ADMINS",
]) {
  delete process.env[key];
}
