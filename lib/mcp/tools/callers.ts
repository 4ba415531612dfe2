/** callers: who calls a symbol, up the resolved call graph (call-graph.ts). */
import "server-only";
import { callGraphInput, callGraphOutput, walkCallGraph } from "../call-graph.ts";
import { defineTool } from "../tool.ts";

export const callersTool = defineTool({
  name: "callers",
  title: "Callers",
  description: "Who calls a symbol, following the resolved call graph up to `depth` hops.",
  input: callGraphInput,
  output: callGraphOutput,
  handle: (input) => walkCallGraph("callers", input),
});
