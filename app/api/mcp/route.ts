/**
 * POST /api/mcp: the MCP server over Streamable HTTP, stateless (a fresh server and
 * transport per request, so any web instance can answer any call). Tool calls that
 * report progress (`ask`) answer as an SSE stream; each `ask` counts against the
 * caller's question limit like /api/qa, and continues only the caller's conversations.
 * GET and DELETE, which only stateful servers need, get 405.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { conversationsOf } from "@/lib/auth/conversation-owner";
import { seesGitReasons } from "@/lib/auth/guards";
import { consumeRateLimit } from "@/lib/auth/rate-limit";
import { createMcpServer } from "@/lib/mcp/server";
import { apiRoute } from "../api-route";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

/** A JSON-RPC request to these tools is small; the question limit is far below this. */
const MAX_BODY_BYTES = 1024 * 1024;

export const POST = apiRoute({ access: "reader" }, async (request, identity) => {
  const server = createMcpServer({
    transport: "http",
    gitReasons: seesGitReasons(identity),
    ask: {
      // Every `ask` call counts against the caller's question limit, one by one inside a batch too.
      before: () => consumeRateLimit(request, identity, "question"),
      conversations: conversationsOf(request.headers, identity).access,
    },
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  request.signal.addEventListener("abort", () => void server.close(), { once: true });
  await server.connect(transport);
  return transport.handleRequest(request);
});

function methodNotAllowed(): Response {
  return Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; use POST." },
      id: null,
    },
    { status: 405, headers: { allow: "POST" } },
  );
}

export const GET = apiRoute({ access: "reader" }, async () => methodNotAllowed());
export const DELETE = apiRoute({ access: "reader" }, async () => methodNotAllowed());
