/**
 * The exploratory walk through a language that overloads and dispatches on classes (Java):
 * a call to an overloaded method of the caller's own class, which the index leaves
 * unresolved, is followed to the overload whose parameters fit the caller's; a method
 * written with its arguments starts at the overload they fit; a bare method named after the
 * steps that build an object runs on that object's class; and a class named beside a method
 * it has is the receiver of that method, not a step of its own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";
import { parameterWords } from "./exploratory-unresolved.ts";

const FACTORY = `package demo;

public class Factory {
    public Parser createParser(File file) {
        return _createParser(openFile(file), 0);
    }

    public Parser createParser(InputStream in) {
        return _createParser(in, 0);
    }

    protected Parser _createParser(Reader reader, int flags) {
        return new ReaderParser(reader);
    }

    protected Parser _createParser(InputStream in, int flags) {
        return new StreamParser(in);
    }

    private InputStream openFile(File file) {
        return new FileInputStream(file);
    }
}
`;

const PARSER = `package demo;

public abstract class Parser {
    public abstract Token nextToken();

    public abstract String getText();
}
`;

const STREAM_PARSER = `package demo;

public class StreamParser extends Parser {
    private final InputStream in;
    private final TextBuffer buffer = new TextBuffer();

    public StreamParser(InputStream in) {
        this.in = in;
    }

    public Token nextToken() {
        return readToken(in.read());
    }

    public String getText() {
        return buffer.contents();
    }

    private Token readToken(int b) {
        return new Token(b);
    }
}
`;

const READER_PARSER = `package demo;

public class ReaderParser extends Parser {
    private final Reader reader;

    public ReaderParser(Reader reader) {
        this.reader = reader;
    }

    public Token nextToken() {
        return decodeToken(reader.read());
    }

    public String getText() {
        return String.valueOf(reader.read());
    }

    private Token decodeToken(int c) {
        return new Token(c);
    }
}
`;

const BUFFER = `package demo;

public class TextBuffer {
    public String contents() {
        return join(new StringBuilder());
    }

    private String join(StringBuilder sb) {
        return sb.toString();
    }
}
`;

let repo: IndexedFixture;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-dispatch-"));
  dir = mkdtempSync(path.join(os.tmpdir(), "wf-dispatch-repo-"));
  const src = path.join(dir, "src", "demo");
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, "Factory.java"), FACTORY);
  writeFileSync(path.join(src, "Parser.java"), PARSER);
  writeFileSync(path.join(src, "StreamParser.java"), STREAM_PARSER);
  writeFileSync(path.join(src, "ReaderParser.java"), READER_PARSER);
  writeFileSync(path.join(src, "TextBuffer.java"), BUFFER);
  repo = await indexFixture(dir, "dispatch");
});
afterAll(async () => {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function retrieve(question: string) {
  const result = await askQuestion(
    { repository: repo.repositoryId, question, overrides: { mode: "exploratory" } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  const retrieval = result.loop.retrieval;
  return {
    symbols: retrieval.rankedSymbols.map((s) => s.replace(/^.*::/, "")),
    flow: retrieval.items.find((i) => i.kind === "flow")?.text ?? "",
  };
}

describe("the exploratory walk in a language that overloads", () => {
  it("starts at the overload the written arguments fit and follows own-class calls to the fitting overload", async () => {
    const { flow, symbols } = await retrieve(
      "Walk me through factory.createParser(inputStream) and the first nextToken() call",
    );
    // createParser(InputStream in) → _createParser(InputStream in, int flags) → new StreamParser
    expect(flow).toMatch(/Factory\.createParser\(\)\s+\[src\/demo\/Factory\.java:8-10\]/);
    expect(flow).toMatch(/→ Factory\._createParser\(\)\s+\[src\/demo\/Factory\.java:16-18\]/);
    expect(flow).not.toContain("ReaderParser");
    // …and the bare nextToken() runs on the parser those steps built, not the abstract declaration.
    expect(flow).toMatch(/^StreamParser\.nextToken\(\)/m);
    expect(symbols.slice(0, 4)).toEqual(
      expect.arrayContaining(["Factory.createParser#2", "Factory._createParser#2", "StreamParser.nextToken"]),
    );
    expect(symbols.slice(0, 4)).not.toContain("Parser.nextToken");
  });

  it("takes a class named beside a method it has as that method's receiver", async () => {
    const { flow, symbols } = await retrieve(
      "After StreamParser has returned a token, what happens when I call getText()?",
    );
    expect(flow.split("\n")[0]).toMatch(/^StreamParser\.getText\(\)/);
    expect(flow).toContain("→ TextBuffer.contents()");
    expect(symbols[0]).toBe("StreamParser.getText");
    expect(symbols.slice(0, 3)).not.toContain("Parser.getText");
  });
});

describe("a method named with its own class", () => {
  it("stays that class's method beside another class the question names", async () => {
    const { flow } = await retrieve("Walk me through ReaderParser.getText when a StreamParser is also open");
    expect(flow.split("\n")[0]).toMatch(/^ReaderParser\.getText\(\)/);
  });
});

describe("parameterWords", () => {
  it("reads the words of a signature's parameter list only", () => {
    expect([...parameterWords("public Parser createParser(InputStream in) throws IOException")]).toEqual([
      "inputstream",
      "in",
    ]);
    expect(parameterWords("def run(self, items):").has("items")).toBe(true);
    expect(parameterWords("const x = 1").size).toBe(0);
  });
});
