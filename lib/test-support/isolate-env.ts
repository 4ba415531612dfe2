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
