/** The MCP tools, in the order clients list them. A new tool is a file here and a line below. */
import { askTool } from "./ask.ts";
import { calleesTool } from "./callees.ts";
import { callersTool } from "./callers.ts";
import { findSymbolTool } from "./find-symbol.ts";
import { findingsTool } from "./findings.ts";
import { indexStatusTool } from "./index-status.ts";
import { listRepositoriesTool } from "./list-repositories.ts";
import { readSpanTool } from "./read-span.ts";
import { searchTool } from "./search.ts";
import { wikiPageTool } from "./wiki-page.ts";
import type { McpTool } from "../tool.ts";

export const MCP_TOOLS: readonly McpTool[] = [
  listRepositoriesTool,
  indexStatusTool,
  searchTool,
  findSymbolTool,
  callersTool,
  calleesTool,
  readSpanTool,
  wikiPageTool,
  findingsTool,
  askTool,
];
