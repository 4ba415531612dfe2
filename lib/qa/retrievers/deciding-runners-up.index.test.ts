/**
 * A runner-up whose conditions carry the question comes into the leading five in the place
 * of a function or type deciding nothing of it, weighed from the source the real index
 * holds (Go, TypeScript and Java fixtures).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexRepository } from "../../builds/build.ts";
import { setupTempEnv, type TempEnv } from "../../../test-support/temp-env.ts";
import { symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { extractAnchors } from "../../search/anchors.ts";
import { SourceReader } from "../context.ts";
import { focusQuery, wordStems } from "../focus.ts";
import { decidingWeights } from "./deciding-neighbours.ts";
import { decidingRunnersUp } from "./deciding-runners-up.ts";
import type { Ranked } from "./shared.ts";

const GO_MUX = `package router

import "strings"

// Mux routes each request to the handler registered for its path.
type Mux struct {
\troutes []route
\tname   string
}

type route struct {
\tpattern string
\thandler Handler
}

// Handler serves one request.
type Handler func(path string) string

// Handle registers a handler for a pattern.
func (mx *Mux) Handle(pattern string, h Handler) {
\tmx.routes = append(mx.routes, route{pattern, h})
}

// Name is the router's name.
func (mx *Mux) Name() string {
\treturn mx.name
}

// Routes lists the registered patterns.
func (mx *Mux) Routes() []string {
\tout := []string{}
\tfor _, r := range mx.routes {
\t\tout = append(out, r.pattern)
\t}
\treturn out
}

func (mx *Mux) findRoute(path string) Handler {
\tfor _, r := range mx.routes {
\t\tif strings.HasPrefix(path, r.pattern) {
\t\t\treturn r.handler
\t\t}
\t}
\treturn nil
}

func (mx *Mux) logf(format string) {
\tprintln(format)
}
`;

const TS_MERGE = `export interface Options {
  headers?: Record<string, string>;
  retry?: number;
}

export const isObject = (value: unknown): value is object => value !== null && typeof value === "object";

export function validate(options: Options): Options {
  return options;
}

export function describeOptions(options: Options): string {
  const parts = [String(options.retry)];
  return parts.join(",");
}

export function mergeOptions(...sources: Options[]): Options {
  return deepMergeInternal({}, sources);
}

function deepMergeInternal(target: Options, sources: Options[]): Options {
  let result: Options = target;
  for (const source of sources) {
    if (isObject(source.headers)) {
      result = { ...result, headers: { ...result.headers, ...source.headers } };
    }
    if (source.retry !== undefined) result = { ...result, retry: source.retry };
  }
  return result;
}

export function log(message: string): void {
  console.log(message);
}
`;

const JAVA_BOOT = `package core;

/** Reads the first bytes of an input to pick its encoding. */
public class Bootstrapper {
  private final byte[] buffer;
  private int ptr;

  public Bootstrapper(byte[] buffer) {
    this.buffer = buffer;
  }

  public int position() {
    return ptr;
  }

  public String name() {
    return "bootstrapper";
  }

  public void reset() {
    ptr = 0;
  }

  public String detectEncoding() {
    if (buffer.length >= 2 && buffer[0] == (byte) 0xFE && buffer[1] == (byte) 0xFF) {
      return "UTF-16BE";
    }
    return "UTF-8";
  }
}
`;

let t: TempEnv;
let go: string;
let ts: string;
let java: string;
beforeAll(async () => {
  t = await setupTempEnv();
  const index = async (files: Record<string, string>) =>
    (await indexRepository(t.makeRepo(files))).repository.activeGenerationId as string;
  go = await index({ "mux.go": GO_MUX });
  ts = await index({ "src/merge.ts": TS_MERGE });
  java = await index({ "src/core/Bootstrapper.java": JAVA_BOOT });
});
afterAll(async () => {
  await t?.cleanup();
});

/** The ranking of some symbols as given, reordered with deciding runners-up brought in. */
async function reordered(generationId: string, ids: string[], question: string): Promise<string[]> {
  const symbols = await symbolsByQualifiedIds(generationId, ids);
  const ranked: Ranked[] = ids.map((id, i) => {
    const symbol = symbols.find((s) => s.qualifiedId === id) as SymbolRecord;
    expect(symbol, id).toBeDefined();
    return { candidate: { key: id, symbol, chunk: null, reason: "" }, score: 1 - i / 20, reasons: [] };
  });
  const query = focusQuery(question, extractAnchors(question));
  const weight = await decidingWeights(new SourceReader(generationId), symbols, query);
  const asked = new Set(wordStems(question));
  return decidingRunnersUp(ranked, weight, query.names, asked).map(
    (r) => r.candidate.symbol?.qualifiedName ?? "",
  );
}

describe("a deciding runner-up takes the place of a leading symbol deciding nothing", () => {
  it("Go: findRoute, testing the path against each pattern, comes in for a type the question does not name", async () => {
    const ids = [
      "Mux.Handle",
      "Mux",
      "Mux.Routes",
      "Mux.Name",
      "Handler",
      "route",
      "Mux.findRoute",
      "Mux.logf",
    ];
    const at = ids.map((n) => `mux.go::${n}`);
    expect(
      await reordered(go, at, "How does the router decide which handler matches a request path?"),
    ).toEqual([
      "Mux.Handle",
      "Mux",
      "Mux.Routes",
      "Mux.Name",
      "Mux.findRoute",
      "Handler",
      "route",
      "Mux.logf",
    ]);
    // A type the question names keeps its place: the function deciding nothing gives way.
    expect(
      await reordered(go, at, "How does the router decide which `Handler` matches a request path?"),
    ).toEqual([
      "Mux.Handle",
      "Mux",
      "Mux.Routes",
      "Mux.findRoute",
      "Handler",
      "Mux.Name",
      "route",
      "Mux.logf",
    ]);
  });

  it("TypeScript: deepMergeInternal, testing the headers, comes in for the function named with none of the question's words", async () => {
    const ids = [
      "Options",
      "mergeOptions",
      "validate",
      "describeOptions",
      "isObject",
      "log",
      "deepMergeInternal",
    ];
    const at = ids.map((n) => `src/merge.ts::${n}`);
    expect(await reordered(ts, at, "How are the headers of two option objects merged?")).toEqual([
      "Options",
      "mergeOptions",
      "deepMergeInternal",
      "describeOptions",
      "isObject",
      "validate",
      "log",
    ]);
    // A question none of whose words a runner-up tests leaves the order as it was.
    expect(await reordered(ts, at, "What does the log print?")).toEqual(ids);
  });

  it("Java: detectEncoding, testing the input's first bytes, comes in for the constructor", async () => {
    const names = ["Bootstrapper", "position", "name", "reset", "Bootstrapper", "detectEncoding"];
    const ids = names.map((n, i) => `src/core/Bootstrapper.java::${i === 0 ? n : `Bootstrapper.${n}`}`);
    const question = "How does it detect the encoding from the first bytes of the buffer?";
    expect(await reordered(java, ids, question)).toEqual([
      "Bootstrapper",
      "Bootstrapper.position",
      "Bootstrapper.name",
      "Bootstrapper.reset",
      "Bootstrapper.detectEncoding",
      "Bootstrapper.Bootstrapper",
    ]);
    // The constructor named with one of the question's words keeps its place: reset gives way.
    expect(
      await reordered(java, ids, "How does the bootstrapper detect the encoding from the first bytes?"),
    ).toEqual([
      "Bootstrapper",
      "Bootstrapper.position",
      "Bootstrapper.name",
      "Bootstrapper.detectEncoding",
      "Bootstrapper.Bootstrapper",
      "Bootstrapper.reset",
    ]);
    expect(await reordered(java, ids, "What name does it give?")).toEqual([
      "Bootstrapper",
      "Bootstrapper.position",
      "Bootstrapper.name",
      "Bootstrapper.reset",
      "Bootstrapper.Bootstrapper",
      "Bootstrapper.detectEncoding",
    ]);
  });
});
