/**
 * `wayfinder mcp`: the MCP server over stdio, for coding agents and editors that start
 * it as a child process. Standard output carries the protocol and nothing else, so
 * every log line of this process goes to standard error. Ends when the client closes
 * its end of the pipe.
 */
import type { Command } from "./context.ts";

export const mcpCommand: Command = async () => {
  // A stray console.log would corrupt the JSON-RPC stream.
  console.log = console.error;
  console.info = console.error;
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("../mcp/server.ts"),
  ]);
  const server = createMcpServer({ transport: "stdio" });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once("end", () => void server.close());
  });
  await server.connect(transport);
  await closed;
  return 0;
};
