/**
 * The MCP endpoint of the running server, through the SDK's own client: tools listed,
 * search, callers and ask on the fixture repository, with verified spans that match
 * the indexed lines read back through read_span.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "@playwright/test";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test("an MCP client lists the tools and gets verified spans from search, callers and ask", async ({
  baseURL,
}) => {
  const client = new Client({ name: "wayfinder-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL)));
  try {
    const call = async (name: string, args: Json): Promise<Json> => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent as Json;
    };
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "list_repositories",
        "search",
        "callers",
        "callees",
        "read_span",
        "ask",
        "index_status",
      ]),
    );

    const { repositories } = await call("list_repositories", {});
    expect(repositories.find((r: Json) => r.name === "shop")).toMatchObject({ status: "ready" });

    const search = await call("search", { repository: "shop", query: "compute total", scope: "shop" });
    const hit = search.results.find((r: Json) => r.symbol === "shop/pricing.py::compute_total");
    expect(hit).toBeTruthy();
    const span = await call("read_span", {
      repository: "shop",
      path: hit.path,
      startLine: hit.startLine,
      endLine: hit.endLine,
    });
    expect(span.text).toMatch(/^def compute_total\(items: list\) -> float:/);

    const callers = await call("callers", { repository: "shop", symbol: "compute_total", depth: 2 });
    expect(callers.edges.map((e: Json) => e.from)).toContain("shop/service.py::OrderService.place_order");
    expect(callers.edges.some((e: Json) => e.depth === 2)).toBe(true);

    const progress: string[] = [];
    const asked = (await client.callTool(
      { name: "ask", arguments: { repository: "shop", question: "How is an order total computed?" } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? "") },
    )) as CallToolResult;
    expect(asked.isError).toBeFalsy();
    const answer = asked.structuredContent as Json;
    expect(answer.index.repository).toBe("shop");
    expect(progress.length).toBeGreaterThan(0);
    const verified = answer.citations.filter((c: Json) => c.verified);
    expect(verified.length).toBeGreaterThan(0);
    expect(answer.claims.length).toBeGreaterThan(0);
    for (const c of verified.slice(0, 3)) {
      // The snippet is the indexed lines it says it shows, inside the cited span.
      expect(c.shownLines.startLine).toBeGreaterThanOrEqual(c.startLine);
      expect(c.shownLines.endLine).toBeLessThanOrEqual(c.endLine);
      const lines = await call("read_span", {
        repository: "shop",
        path: c.path,
        startLine: c.shownLines.startLine,
        endLine: c.shownLines.endLine,
      });
      expect(c.snippet).toBe(lines.text);
    }
  } finally {
    await client.close();
  }
});
