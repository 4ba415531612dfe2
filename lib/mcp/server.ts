/**
 * Wayfinder as a Model Context Protocol server (official TypeScript SDK): ten
 * read-only tools with JSON-schema'd inputs and outputs, and the wiki as resources.
 * One factory serves both transports — stdio (`wayfinder mcp`) and Streamable HTTP
 * (/api/mcp, a fresh server per request) — so both give the same results. Errors are
 * tool errors (`isError`) carrying the same safe messages as the HTTP API.
 */
import "server-only";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { getGeneration, listRepositories, requireRepository } from "../db/index-store.ts";
import { getWikiPage, listWikiPages } from "../db/wiki-store.ts";
import { WayfinderError, asWayfinderError } from "../errors.ts";
import type { ConversationAccess } from "../qa/conversations.ts";
import { gapAnswersSchema } from "../qa/gap-answers.ts";
import {
  MAX_SPAN_LINES,
  askTool,
  callGraphTool,
  findSymbolTool,
  findingsTool,
  indexStatusTool,
  listRepositoriesTool,
  readSpanTool,
  searchTool,
  wikiPageTool,
} from "./tools.ts";

export const MCP_SERVER_NAME = "wayfinder";
export const MCP_SERVER_VERSION = "0.1.0";

const repository = z.string().min(1).max(4096).describe("Repository name or id (see list_repositories).");

const indexRef = z
  .object({
    repositoryId: z.string(),
    repository: z.string(),
    generation: z.number().int().describe("index generation the result was read from"),
    commit: z.string().nullable().describe("commit that generation indexed"),
  })
  .describe("The index the result comes from.");

const citation = z.object({
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  verified: z.boolean().describe("the file, lines and named symbol exist in the index generation"),
  symbol: z.string().nullable(),
  reason: z.string().nullable().describe("why an unverified citation failed"),
  snippet: z.string().nullable().describe("the cited lines as indexed (verified citations only)"),
});

const symbol = z.object({
  id: z.string().describe("qualified id, path::Qualified.name"),
  name: z.string(),
  kind: z.string(),
  language: z.string(),
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  signature: z.string(),
  docstring: z.string(),
  raises: z.array(z.string()),
  mutates: z.array(z.string()),
  fanIn: z.number().int(),
  fanOut: z.number().int(),
});

const callGraphInput = {
  repository,
  symbol: z
    .string()
    .min(1)
    .max(500)
    .describe("Qualified id (path::Class.method), Class.method or a plain name."),
  depth: z.number().int().min(1).max(4).default(1).describe("Hops to follow (1-4)."),
  limit: z.number().int().min(1).max(100).default(25).describe("Edges per symbol and hop."),
};

const callGraphOutput = {
  index: indexRef,
  direction: z.enum(["callers", "callees"]),
  roots: z.array(z.string()),
  depth: z.number().int(),
  edges: z.array(
    z.object({
      from: z.string(),
      to: z.string().nullable().describe("null: an unresolved call (raw keeps the name)"),
      raw: z.string(),
      depth: z.number().int(),
      path: z.string().describe("file of the call site"),
      line: z.number().int().describe("line of the call site"),
      confidence: z.number(),
    }),
  ),
  nodes: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      path: z.string(),
      startLine: z.number().int(),
      endLine: z.number().int(),
    }),
  ),
  truncated: z.boolean(),
};

export interface ServerOptions {
  /** tells clients how the server was reached (e.g. "stdio", "http") */
  transport: string;
  /** git's own reason for an unreachable remote in index_status (stdio and admins: yes; readers: no) */
  gitReasons?: boolean;
  /** what an `ask` call is checked against over HTTP (stdio: the operator, no limit, every conversation) */
  ask?: {
    /** runs before each call (the question limit); a refusal becomes the tool's error */
    before: () => Promise<void>;
    conversations: ConversationAccess;
  };
}

/** JSON text plus structured content: clients without structured output still get everything. */
function ok(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** A tool error with the safe message of the API (internal details stay in the log). */
function failed(error: unknown): CallToolResult {
  const e = asWayfinderError(error);
  if (e.type === "internal" || e.type === "unavailable")
    console.error(`[wayfinder] mcp: ${e.code}: ${e.message}`, e.cause ?? "");
  return { content: [{ type: "text", text: e.message }], isError: true };
}

async function run(work: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return ok(await work());
  } catch (error) {
    return failed(error);
  }
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

export function createMcpServer(options: ServerOptions): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION, title: "Wayfinder" },
    {
      capabilities: { logging: {} },
      instructions:
        "Wayfinder indexes repositories (code index, call graph, wiki, findings). Start with list_repositories; " +
        "use search, find_symbol, callers/callees and read_span to look around, and ask for a cited answer " +
        "with verified spans. Every result names the index generation and commit it was read from. " +
        `Transport: ${options.transport}.`,
    },
  );

  server.registerTool(
    "list_repositories",
    {
      title: "List repositories",
      description: "Indexed repositories with their source, status, generation and commit.",
      inputSchema: {},
      outputSchema: {
        repositories: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            source: z.object({
              kind: z.enum(["folder", "git"]),
              url: z.string().nullable(),
              branch: z.string().nullable(),
            }),
            status: z.string(),
            generation: z.number().int().nullable(),
            commit: z.string().nullable(),
            indexedAt: z.string().nullable(),
            files: z.number().int(),
            symbols: z.number().int(),
          }),
        ),
      },
      annotations: READ_ONLY,
    },
    () => run(listRepositoriesTool),
  );

  server.registerTool(
    "index_status",
    {
      title: "Index status",
      description:
        "A repository's serving generation and commit, its latest build, and its Git source and polling.",
      inputSchema: { repository },
      outputSchema: {
        repositoryId: z.string(),
        repository: z.string(),
        status: z.string(),
        source: z.object({
          kind: z.enum(["folder", "git"]),
          url: z.string().nullable(),
          branch: z.string().nullable(),
          pollMinutes: z.number().int().nullable(),
          lastPolledAt: z.string().nullable(),
          pollError: z.string().nullable(),
          remoteHead: z.string().nullable(),
        }),
        active: z
          .object({
            generation: z.number().int(),
            commit: z.string().nullable(),
            finishedAt: z.string().nullable(),
            files: z.number().int(),
            symbols: z.number().int(),
            edges: z.number().int(),
          })
          .nullable(),
        build: z
          .object({
            generation: z.number().int(),
            status: z.string(),
            phase: z.string(),
            filesDone: z.number().int(),
            filesTotal: z.number().int(),
            error: z.string().nullable(),
            commit: z.string().nullable(),
          })
          .nullable(),
      },
      annotations: READ_ONLY,
    },
    (input) => run(() => indexStatusTool(input, { gitReasons: options.gitReasons })),
  );

  server.registerTool(
    "search",
    {
      title: "Search",
      description:
        "Lexical (BM25) or hybrid (BM25 + vectors) search over code, docs and wiki, optionally under a folder.",
      inputSchema: {
        repository,
        query: z.string().min(1).max(2000),
        mode: z.enum(["lexical", "hybrid"]).default("hybrid"),
        scope: z
          .string()
          .max(1000)
          .optional()
          .describe("Only results under this folder or file (repository-relative)."),
        kinds: z
          .array(z.enum(["code", "doc", "text", "wiki"]))
          .max(4)
          .optional()
          .describe("Chunk kinds to include."),
        limit: z.number().int().min(1).max(50).default(10),
      },
      outputSchema: {
        index: indexRef,
        results: z.array(
          z.object({
            path: z.string(),
            startLine: z.number().int(),
            endLine: z.number().int(),
            kind: z.string(),
            title: z.string(),
            symbol: z.string().nullable(),
            score: z.number(),
            preview: z.string(),
          }),
        ),
      },
      annotations: READ_ONLY,
    },
    (input) => run(() => searchTool(input)),
  );

  server.registerTool(
    "find_symbol",
    {
      title: "Find symbol",
      description:
        "Functions, methods and classes by name, with location, signature, docstring, raises and mutations.",
      inputSchema: {
        repository,
        name: z
          .string()
          .min(1)
          .max(500)
          .describe("Qualified id (path::Class.method), Class.method or a plain name."),
        limit: z.number().int().min(1).max(50).default(10),
      },
      outputSchema: { index: indexRef, symbols: z.array(symbol) },
      annotations: READ_ONLY,
    },
    (input) => run(() => findSymbolTool(input)),
  );

  server.registerTool(
    "callers",
    {
      title: "Callers",
      description: "Who calls a symbol, following the resolved call graph up to `depth` hops.",
      inputSchema: callGraphInput,
      outputSchema: callGraphOutput,
      annotations: READ_ONLY,
    },
    (input) => run(() => callGraphTool("callers", input)),
  );

  server.registerTool(
    "callees",
    {
      title: "Callees",
      description: "What a symbol calls, following the resolved call graph down to `depth` hops.",
      inputSchema: callGraphInput,
      outputSchema: callGraphOutput,
      annotations: READ_ONLY,
    },
    (input) => run(() => callGraphTool("callees", input)),
  );

  server.registerTool(
    "read_span",
    {
      title: "Read span",
      description: `Lines of a file as indexed (never the live disk), at most ${MAX_SPAN_LINES} per call.`,
      inputSchema: {
        repository,
        path: z.string().min(1).max(1000).describe("Repository-relative file path."),
        startLine: z.number().int().min(1).optional(),
        endLine: z.number().int().min(1).optional(),
      },
      outputSchema: {
        index: indexRef,
        path: z.string(),
        language: z.string(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        totalLines: z.number().int(),
        text: z.string(),
      },
      annotations: READ_ONLY,
    },
    (input) => run(() => readSpanTool(input)),
  );

  server.registerTool(
    "wiki_page",
    {
      title: "Wiki page",
      description: "A generated wiki page (Markdown with citations): the overview, a folder's or a file's.",
      inputSchema: {
        repository,
        page: z
          .string()
          .max(1000)
          .optional()
          .describe('A file or folder path, or a slug ("file/<path>", "dir/<path>"); omit for the overview.'),
      },
      outputSchema: {
        index: indexRef,
        slug: z.string(),
        kind: z.string(),
        title: z.string(),
        sourcePath: z.string().nullable(),
        summary: z.string(),
        markdown: z.string(),
        diagram: z.string().nullable().describe("mermaid source built from the call graph"),
        modelWritten: z.boolean(),
        pages: z
          .array(z.object({ slug: z.string(), title: z.string() }))
          .describe("all pages (overview only)"),
      },
      annotations: READ_ONLY,
    },
    (input) => run(() => wikiPageTool(input)),
  );

  server.registerTool(
    "findings",
    {
      title: "Findings",
      description:
        "Structural findings of the issues store (cycles, swallowed errors, hubs, TODOs …), worst first.",
      inputSchema: {
        repository,
        category: z.string().max(100).optional(),
        severity: z.enum(["high", "medium", "low"]).optional(),
        scope: z.string().max(1000).optional().describe("Only findings under this folder or file."),
        limit: z.number().int().min(1).max(200).default(50),
      },
      outputSchema: {
        index: indexRef,
        findings: z.array(
          z.object({
            category: z.string(),
            severity: z.string(),
            title: z.string(),
            detail: z.string(),
            path: z.string().nullable(),
            startLine: z.number().int().nullable(),
            endLine: z.number().int().nullable(),
            symbol: z.string().nullable(),
          }),
        ),
        counts: z.array(z.object({ category: z.string(), severity: z.string(), count: z.number().int() })),
      },
      annotations: READ_ONLY,
    },
    (input) => run(() => findingsTool(input)),
  );

  server.registerTool(
    "ask",
    {
      title: "Ask",
      description:
        "Answer a question with the CGRAG loop: claims with verified citations, gaps resolved and unresolved, " +
        "mode and passes; progress per pass. sessionId + gapAnswers continues its last answer.",
      inputSchema: {
        repository,
        question: z
          .string()
          .max(200_000)
          .optional()
          .describe("The question; not needed when gapAnswers continues the session's last answer."),
        mode: z.enum(["conceptual", "diagnostic", "exploratory", "analytical"]).optional(),
        quality: z.enum(["quick", "balanced", "thorough"]).optional(),
        maxPasses: z.number().int().min(1).max(8).optional(),
        sessionId: z
          .string()
          .regex(/^[A-Za-z0-9_-]{8,64}$/)
          .optional()
          .describe("Continue a conversation (follow-ups reuse its context)."),
        gapAnswers: gapAnswersSchema
          .optional()
          .describe(
            "Fill unresolved gaps of the session's last answer, which then continues from that pass: per gap, " +
              "a location of the repository (file, folder, symbol or path:start-end, checked against the index) " +
              "or a short code excerpt (marked as provided by the user, not verified).",
          ),
      },
      outputSchema: {
        index: indexRef,
        answer: z.string(),
        claims: z.array(z.object({ text: z.string(), verified: z.boolean(), citations: z.array(citation) })),
        citations: z.array(citation),
        gaps: z.object({
          identified: z.array(z.string()),
          resolved: z.array(
            z.object({
              gap: z.string(),
              via: z.string().nullable(),
              found: z.array(z.string()),
              note: z.string().nullable(),
            }),
          ),
          unresolved: z.array(
            z.object({ gap: z.string(), searched: z.array(z.string()), note: z.string().nullable() }),
          ),
        }),
        mode: z.enum(["conceptual", "diagnostic", "exploratory", "analytical"]),
        scope: z.string().nullable(),
        passes: z.object({
          used: z.number().int(),
          max: z.number().int(),
          stopReason: z.string().nullable(),
        }),
        confidence: z.enum(["high", "medium", "low"]),
        engine: z.string(),
        fallback: z.string().nullable(),
        sessionId: z.string(),
      },
      annotations: READ_ONLY,
    },
    (input, extra) =>
      run(async () => {
        await options.ask?.before();
        return askTool(input, {
          signal: extra.signal,
          conversations: options.ask?.conversations,
          onProgress: (p) => {
            const token = extra._meta?.progressToken;
            if (token === undefined) return;
            void extra
              .sendNotification({
                method: "notifications/progress",
                params: {
                  progressToken: token,
                  progress: p.progress,
                  total: p.maxPasses,
                  message: p.message,
                },
              })
              .catch(() => undefined);
          },
        });
      }),
  );

  registerWikiResources(server);
  return server;
}

/** Wiki pages as resources: wayfinder://<repository id>/wiki/<slug> (the overview: …/wiki/). */
function registerWikiResources(server: McpServer): void {
  server.registerResource(
    "wiki",
    new ResourceTemplate("wayfinder://{repository}/wiki/{+slug}", {
      list: async () => {
        const resources = [];
        for (const repo of await listRepositories()) {
          if (!repo.activeGenerationId) continue;
          for (const page of await listWikiPages(repo.activeGenerationId)) {
            resources.push({
              uri: `wayfinder://${repo.id}/wiki/${page.slug}`,
              name: `${repo.name}: ${page.title}`,
              description: page.summary.slice(0, 200),
              mimeType: "text/markdown",
            });
            if (resources.length >= 2000) return { resources };
          }
        }
        return { resources };
      },
    }),
    {
      title: "Wiki pages",
      description: "Generated wiki pages of each repository's serving generation.",
      mimeType: "text/markdown",
    },
    async (uri, variables) => {
      const repo = await requireRepository(String(variables.repository));
      const slug = decodeURIComponent(String(variables.slug ?? ""));
      const generation = repo.activeGenerationId ? await getGeneration(repo.activeGenerationId) : null;
      const page = generation ? await getWikiPage(generation.id, slug) : null;
      if (!page) throw new WayfinderError("not_found:wiki_page", `No wiki page at ${uri.href}.`);
      return {
        contents: [{ uri: uri.href, mimeType: "text/markdown", text: `# ${page.title}\n\n${page.content}` }],
      };
    },
  );
}
