/**
 * Wayfinder as a Model Context Protocol server (official TypeScript SDK): ten
 * read-only tools with JSON-schema'd inputs and outputs (tools/, one file each), and
 * the wiki as resources. One factory serves both transports — stdio (`wayfinder mcp`)
 * and Streamable HTTP (/api/mcp, a fresh server per request) — so both give the same
 * results. Errors are tool errors (`isError`) carrying the same safe messages as the
 * HTTP API (tool.ts).
 */
import "server-only";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerWikiResources } from "./resources.ts";
import type { ServerOptions } from "./tool.ts";
import { MCP_TOOLS } from "./tools/index.ts";

export const MCP_SERVER_NAME = "wayfinder";
export const MCP_SERVER_VERSION = "0.1.0";

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
  for (const tool of MCP_TOOLS) tool.register(server, options);
  registerWikiResources(server);
  return server;
}
