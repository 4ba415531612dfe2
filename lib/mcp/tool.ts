/**
 * What an MCP tool is: a name, a title and description, zod schemas for its input and
 * output (JSON Schema for clients), and a handler returning the structured result.
 * `defineTool` turns one into something `createMcpServer` registers in its loop, and
 * gives every tool the same result shape (structured content plus the same JSON as
 * text) and the same errors (the API's safe messages as tool errors, `isError`). A
 * new tool is one file under tools/ and a line in tools/index.ts.
 */
import "server-only";
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ShapeOutput, ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { asWayfinderError } from "../errors.ts";
import type { ConversationAccess } from "../qa/conversations.ts";

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

/** What a handler gets besides its input: the server's options and the call's own context. */
export interface ToolCall {
  options: ServerOptions;
  /** the request's abort signal, progress token and notification sender */
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
}

export interface ToolSpec<Input extends ZodRawShapeCompat, Output extends ZodRawShapeCompat> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  handle(input: ShapeOutput<Input>, call: ToolCall): Promise<Record<string, unknown>>;
}

/** A tool ready to be registered on a server. */
export interface McpTool {
  name: string;
  register(server: McpServer, options: ServerOptions): void;
}

/** Every tool only reads the index. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

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

export function defineTool<Input extends ZodRawShapeCompat, Output extends ZodRawShapeCompat>(
  spec: ToolSpec<Input, Output>,
): McpTool {
  return {
    name: spec.name,
    register(server, options) {
      server.registerTool<Output, Input>(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema: spec.input,
          outputSchema: spec.output,
          annotations: READ_ONLY,
        },
        // The SDK picks the callback's type from the shape's kind, which it cannot do for a
        // generic shape; for a shape of fields the callback is (input, extra).
        ((input: ShapeOutput<Input>, extra: ToolCall["extra"]) =>
          run(() => spec.handle(input, { options, extra }))) as ToolCallback<Input>,
      );
    },
  };
}
