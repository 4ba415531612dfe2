import { describe, expect, it } from "vitest";
import {
  analyticalAsks,
  asksAboutFunctions,
  asksConstruction,
  asksImportersOf,
  ranksFolders,
} from "./analytical-intent.ts";
import { asksOwnDependencies } from "./analytical-dependencies.ts";
import { excludedByName, namedExclusions } from "./scope.ts";

describe("what an analytical question asks for", () => {
  it.each([
    [
      "Which parts of the code call into Scene to replace elements, and how do they depend on each other?",
      "callers",
    ],
    ["How many places call ctx.fail, and in which files are they?", "callers"],
    ["What calls Session.merge_environment_settings?", "callers"],
    ["Who invokes the scheduler's tick method?", "callers"],
    ["List the methods that run the beforeRequest hooks.", "callers"],
    ["What does Command depend on and what depends on it?", "dependencies"],
    ["Which modules in src/click are imported by the most other modules?", "most-imported"],
    ["Across the whole package, which helpers are depended on most?", "most-imported"],
    ["Are there import cycles among core.py, types.py and parser.py?", "cycles"],
    ["Does utils/ ever import from core/ or plugins/, or is it a clean bottom layer?", "layering"],
    ["Which function in lodash.js has the highest fan-out?", "fan-out"],
    ["What are the largest functions in click/core.py by line count?", "largest"],
    ["Is there any dead code in _compat.py — functions nothing calls anymore?", "dead-code"],
    ["How coupled is progress.py to live.py?", "coupling"],
    ["Assess the code quality of lib/indexer.", "overview"],
    ["Which modules import core/logx the most?", "importers"],
    ["Which packages depend most on core/breaker?", "importers"],
    ["Which files include stack.h the most?", "importers"],
    ["Which built-in validators are built on the shared comparison validator base class?", "callers"],
    ["Which constructors funnel into the single function that allocates an error?", "callers"],
    ["Which methods of an error depend on the vtable's downcast entry?", "callers"],
    ["Where in the library is a code writer created? List the places that construct one.", "callers"],
    ["Which files does the authenticator depend on, and is there any circular require?", "cycles"],
    ["What does src/error.rs import?", "dependencies"],
    ["Which files does source/core/Ky.ts import, and which files import it?", "dependencies"],
    ["Which header is included by the most files, and what does it include in turn?", "most-imported"],
  ])("%j asks for %s", (question, ask) => {
    expect(analyticalAsks(question)[0]).toBe(ask);
  });

  it("reads a ranking by importers as the most imported, not the users of a part", () => {
    expect(analyticalAsks("Which modules in src are imported by the most other modules?")).not.toContain(
      "importers",
    );
    expect(analyticalAsks("Which classes are referenced by the most other source files?")).not.toContain(
      "importers",
    );
  });

  it("reads a second figure beside a cycle check", () => {
    expect(
      analyticalAsks("Which files does the authenticator depend on, and is there any circular require?"),
    ).toContain("dependencies");
    expect(analyticalAsks("Which modules depend on the most other modules?")).not.toContain("callers");
  });

  it("asks where its subject is created only when it says so", () => {
    expect(asksConstruction("Where in the library is a code writer created?")).toBe(true);
    expect(asksConstruction("List the places that construct one.")).toBe(true);
    expect(asksConstruction("Who instantiates Parser?")).toBe(true);
    expect(asksConstruction("Which parts of the code call into Scene to create elements?")).toBe(false);
  });

  it("asks which files import named code, not which are imported the most", () => {
    expect(asksImportersOf("Which modules require the request extension that adds req.login?")).toBe(true);
    expect(asksImportersOf("Which files include stack.h?")).toBe(true);
    expect(asksImportersOf("Which files include stack.h the most?")).toBe(false);
    expect(asksImportersOf("Which modules import from core/?")).toBe(false);
  });

  it("reads the least used end of a ranking apart from the most used", () => {
    for (const q of [
      "Which files are depended on the least?",
      "Which modules are imported by the fewest other modules?",
      "What are the least used packages?",
      "Which functions are called the least?",
      "Which helpers have the fewest callers?",
    ]) {
      expect(analyticalAsks(q)).toContain("least-imported");
      expect(analyticalAsks(q)).not.toContain("most-imported");
    }
    // "at least" is no ranking.
    expect(analyticalAsks("Which functions have at least two callers?")).not.toContain("least-imported");
    expect(analyticalAsks("Which files are imported by the most other files?")).not.toContain(
      "least-imported",
    );
  });

  it("asks for an overview when nothing specific is named", () => {
    expect(analyticalAsks("Tell me about this package")).toEqual(["overview"]);
  });
});

describe("what a ranking ranks", () => {
  it("ranks folders only when it asks about packages, folders or namespaces", () => {
    expect(ranksFolders("Which packages under core/ are imported by the most other packages?")).toBe(true);
    expect(
      ranksFolders("Which modules in zustand's src folder are imported by the most other modules?"),
    ).toBe(false);
    expect(ranksFolders("Which headers in jq's src folder are #included by the most source files?")).toBe(
      false,
    );
  });

  it("counts files when the question counts files, even about classes", () => {
    expect(asksAboutFunctions("Which classes are referenced by the most other source files?")).toBe(false);
    expect(asksAboutFunctions("Which functions have the highest fan-in?")).toBe(true);
    expect(
      asksAboutFunctions("Which classes in the javapoet package are used by the most other classes?"),
    ).toBe(false);
    expect(asksAboutFunctions("Which methods of the Parser class are called the most?")).toBe(true);
  });
});

describe("parts a question leaves out", () => {
  it("reads 'leave X out', 'excluding X', 'without X'", () => {
    expect(
      namedExclusions("Which headers are included the most? Leave the bundled decNumber library out."),
    ).toEqual(["decnumber"]);
    expect(namedExclusions("Rank the modules excluding tools/ and without examples")).toEqual([
      "tools",
      "examples",
    ]);
  });

  it("matches a path by a whole segment or a prefix", () => {
    expect(excludedByName("src/decNumber/decNumber.c", ["decnumber"])).toBe(true);
    expect(excludedByName("src/jv.c", ["decnumber"])).toBe(false);
    expect(excludedByName("tools/gen/x.go", ["tools/gen"])).toBe(true);
  });
});

describe("asksOwnDependencies", () => {
  it("reads what a part depends on, a one-word part too, but not what depends on it", () => {
    expect(asksOwnDependencies("What does TypeSpec depend on?")).toBe(true);
    expect(asksOwnDependencies("What does src/error.rs import?")).toBe(true);
    expect(asksOwnDependencies("Which files do others depend on?")).toBe(false);
    expect(asksOwnDependencies("Which files does source/core/Ky.ts import, and which files import it?")).toBe(
      false,
    );
  });
});
