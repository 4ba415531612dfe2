/** callees: what a symbol calls, down the resolved call graph (call-graph.ts). */
import "server-only";
import { callGraphInput, callGraphOutput, walkCallGraph } from "../call-graph.ts";
import { defineTool } from "../tool.ts";

export const calleesTool = defineTool({
  name: "callees",
  title: "Callees",
  description: "What a symbol calls, following the resolved call graph down to `depth` hops.",
  input: callGraphInput,
  output: callGraphOutput,
  handle: (input) => walkCallGraph("callees", input),
});
