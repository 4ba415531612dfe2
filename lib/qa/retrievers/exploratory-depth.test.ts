/**
 * How deep an exploratory walk goes on a real index: thin wrappers on the way (a function
 * that only hands on to another, an overload delegating to the one that does the work) cost
 * it no level, so the working steps beyond them are reached; and an overload the chain
 * passes through is one step of the answer, not two places of its top five.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  indexFixture,
  setupQaHome,
  type IndexedFixture,
  retrieversOwnOrder,
} from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";

const INDEX_TS = `import { Client } from "./client";

export function fetchJson(url: string) {
  return Client.fetchJson(url);
}
`;

const CLIENT_TS = `import { Request } from "./request";

export class Client {
  static fetchJson(url: string) {
    return Client.performRequest("GET", url);
  }

  static performRequest(method: string, url: string) {
    const request = new Request(method, url);
    request.validate();
    return request.perform();
  }
}
`;

const REQUEST_TS = `export class Request {
  constructor(private method: string, private url: string) {}

  validate() {
    if (!this.url) throw new Error("no url");
  }

  perform() {
    const raw = this.transmit();
    return this.handleResponse(raw);
  }

  transmit() {
    return this.method + " " + this.url;
  }

  handleResponse(raw: string) {
    const body = this.decodeBody(raw);
    return { status: 200, body };
  }

  decodeBody(raw: string) {
    return JSON.parse(raw);
  }
}
`;

const REGISTRATION_JAVA = `package demo;

public class Registration {
    public static Services addHandlers(Services services) {
        Config config = Config.defaults();
        return addHandlers(services, config);
    }

    public static Services addHandlers(Services services, Config config) {
        Registrar.addClasses(services, config);
        return services;
    }
}
`;

const REGISTRAR_JAVA = `package demo;

public class Registrar {
    public static void addClasses(Services services, Config config) {
        connectImplementations(services, config);
    }

    static void connectImplementations(Services services, Config config) {
        for (Class<?> type : config.types()) {
            scanType(services, type);
        }
    }

    static void scanType(Services services, Class<?> type) {
        services.add(type);
        services.add(type.getSuperclass());
    }
}
`;

const STARTUP_JAVA = `package demo;

public class Startup {
    public static Services configure() {
        return Registration.addHandlers(new Services());
    }
}
`;

const CONFIG_JAVA = `package demo;

public class Config {
    private final List<Class<?>> types = new ArrayList<>();

    public static Config defaults() {
        Config config = new Config();
        config.scanEntryAssembly();
        return config;
    }

    void scanEntryAssembly() {
        types.add(Object.class);
    }

    List<Class<?>> types() {
        return types;
    }
}
`;

let ts: IndexedFixture;
let java: IndexedFixture;
const dirs: string[] = [];
let cleanup: () => Promise<void>;

function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "wf-depth-repo-"));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-depth-"));
  ts = await indexFixture(
    fixture({ "src/index.ts": INDEX_TS, "src/client.ts": CLIENT_TS, "src/request.ts": REQUEST_TS }),
    "depth-ts",
  );
  java = await indexFixture(
    fixture({
      "src/main/java/demo/Registration.java": REGISTRATION_JAVA,
      "src/main/java/demo/Registrar.java": REGISTRAR_JAVA,
      "src/main/java/demo/Config.java": CONFIG_JAVA,
      "src/main/java/demo/Startup.java": STARTUP_JAVA,
    }),
    "depth-java",
  );
});
afterAll(async () => {
  await cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function explore(repositoryId: string, question: string) {
  const result = await askQuestion(
    { repository: repositoryId, question, overrides: { mode: "exploratory" } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  return {
    symbols: result.loop.retrieval.rankedSymbols,
    flow: result.loop.retrieval.items.find((i) => i.kind === "flow")?.text ?? "",
  };
}

// These tests check the walk's and the retrievers' own order, not the learned ranker's.
retrieversOwnOrder();

describe("the exploratory walk's depth", () => {
  it("passes through thin wrappers without spending its levels on them (TypeScript)", async () => {
    const { symbols, flow } = await explore(
      ts.repositoryId,
      "Walk me through fetchJson(url) until I get the parsed body back",
    );
    // fetchJson → Client.fetchJson → performRequest → perform → handleResponse → decodeBody:
    // two wrappers first, so the last two steps lie past the walk's three levels.
    expect(flow).toMatch(/→ Request\.handleResponse\(\)[^\n]*\n\s+→ Request\.decodeBody\(\)/);
    expect(symbols.slice(0, 5)).toContain("src/request.ts::Request.handleResponse");
  });

  it("ranks a chain's overloads as one step and reaches the work beyond them (Java)", async () => {
    const { symbols, flow } = await explore(
      java.repositoryId,
      "What does Startup.configure() do, step by step, to register my types?",
    );
    expect(flow).toContain("Registrar.scanType()");
    const top = symbols.slice(0, 5);
    expect(top).toEqual(
      expect.arrayContaining([
        "src/main/java/demo/Registrar.java::Registrar.connectImplementations",
        "src/main/java/demo/Registrar.java::Registrar.scanType",
      ]),
    );
    // Both overloads of addHandlers are in the flow; only one holds a place among the first five.
    expect(flow.match(/→ Registration\.addHandlers\(\)/g)).toHaveLength(2);
    expect(top.filter((s) => s.includes("Registration.addHandlers"))).toHaveLength(1);
  });
});
