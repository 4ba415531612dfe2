/**
 * Overloads on a real index: every definition of one qualified name in one file is a
 * symbol with its own body and chunk (the second and later numbered `#2`, `#3` …), the
 * plain id names the first and, looked up, the whole family, and a call by the name
 * lands on the first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calleesOf, symbolsInFile, symbolsOfQualifiedId } from "../db/code-graph.ts";
import { db } from "../db/client.ts";
import { snapshotOf, visibleIn } from "../db/snapshot.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "../builds/build.ts";

let t: TempEnv;
let generationId: string;
const CONNECTION = "src/Connection.java";

beforeAll(async () => {
  t = await setupTempEnv();
  const root = t.makeRepo({
    [CONNECTION]: [
      "public class Connection {",
      "    static Response execute(Request req) {",
      "        return execute(req, null);",
      "    }",
      "",
      "    static Response execute(Request req, Response previous) {",
      '        if (req == null) throw new IllegalArgumentException("Request must not be null");',
      "        return new Response();",
      "    }",
      "}",
      "",
    ].join("\n"),
    "src/Client.java": [
      "public class Client {",
      "    Response fetch(Request req) {",
      "        return Connection.execute(req);",
      "    }",
      "}",
      "",
    ].join("\n"),
  });
  const { repository } = await indexRepository(root, { name: "overloads" });
  generationId = repository.activeGenerationId!;
});
afterAll(async () => {
  await t?.cleanup();
});

describe("overloaded methods", () => {
  it("stores every overload with its own span, id and chunk", async () => {
    const symbols = await symbolsInFile(generationId, CONNECTION);
    expect(symbols.map((s) => [s.qualifiedId, s.startLine, s.endLine])).toEqual([
      [`${CONNECTION}::Connection`, 1, 10],
      [`${CONNECTION}::Connection.execute`, 2, 4],
      [`${CONNECTION}::Connection.execute#2`, 6, 9],
    ]);
    expect(symbols[2]?.raises).toContain("IllegalArgumentException");
    const client = await db();
    const chunks = await client.chunk.findMany({
      where: { ...visibleIn(await snapshotOf(generationId)), path: CONNECTION, kind: "code" },
      select: { symbolId: true, startLine: true },
      orderBy: { startLine: "asc" },
    });
    expect(chunks.map((c) => c.symbolId)).toEqual([
      `${CONNECTION}::Connection`,
      `${CONNECTION}::Connection.execute`,
      `${CONNECTION}::Connection.execute#2`,
    ]);
  });

  it("looks a plain id up as the whole family and a numbered one as itself", async () => {
    const family = await symbolsOfQualifiedId(generationId, `${CONNECTION}::Connection.execute`);
    expect(family.map((s) => s.startLine)).toEqual([2, 6]);
    const second = await symbolsOfQualifiedId(generationId, `${CONNECTION}::Connection.execute#2`);
    expect(second.map((s) => s.startLine)).toEqual([6]);
  });

  it("resolves a call by the name to the first overload", async () => {
    const fromClient = await calleesOf(generationId, "src/Client.java::Client.fetch");
    expect(fromClient.map((e) => e.dstId)).toEqual([`${CONNECTION}::Connection.execute`]);
  });
});
