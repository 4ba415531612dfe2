import { describe, expect, it } from "vitest";
import type { SymbolNameRow } from "../db/code-graph.ts";
import {
  buildSubjectIndex,
  matchChain,
  matchMention,
  matchTerm,
  partsOf,
  receiverTyped,
  subjectMentions,
} from "./subjects.ts";

function row(qualifiedName: string, path: string, kind = "method", fanIn = 0): SymbolNameRow {
  const name = qualifiedName.split(".").pop() as string;
  const parent = qualifiedName.includes(".") ? qualifiedName.slice(0, qualifiedName.lastIndexOf(".")) : null;
  return {
    qualifiedId: `${path}::${qualifiedName}`,
    name,
    qualifiedName,
    path,
    kind,
    parentId: parent,
    exported: true,
    fanIn,
  };
}

describe("subject mentions", () => {
  it.each([
    ["Foo::Bar#baz", ["Foo", "Bar", "baz"]],
    ["Foo.bar", ["Foo", "bar"]],
    ["(*Server).Start", ["Server", "Start"]],
    ["T::m", ["T", "m"]],
    ["ns::Class::method", ["ns", "Class", "method"]],
    ["module.func()", ["module", "func"]],
    ["Slim\\Routing\\Route::run", ["Slim", "Routing", "Route", "run"]],
    ["$this->dispatch()", ["dispatch"]],
    ["self.merge_core", ["merge_core"]],
  ])("reads %s as the chain %j", (text, parts) => {
    expect(partsOf(text)).toEqual(parts);
  });

  it("finds code-shaped names in every language's notation, paths and named types", () => {
    const mentions = subjectMentions(
      "Which parts of src/server call (*Server).Start, Sinatra::Base#route! or `parse_args`, and does the Router class depend on them?",
    );
    const byText = new Map(mentions.map((m) => [m.text, m]));
    expect(byText.get("src/server")?.kind).toBe("path");
    expect(byText.get("(*Server).Start")?.parts).toEqual(["Server", "Start"]);
    expect(byText.get("Sinatra::Base#route!")?.parts).toEqual(["Sinatra", "Base", "route!"]);
    expect(byText.get("parse_args")?.kind).toBe("symbol");
    expect(byText.get("Router")).toMatchObject({ kind: "term", noun: "class" });
    // The first word of a sentence and plain words are not subjects.
    expect(byText.has("Which")).toBe(false);
    expect(byText.has("parts")).toBe(false);
  });

  it("reads calls written with their arguments and the object of 'call'", () => {
    const texts = (q: string) => subjectMentions(q).map((m) => m.text);
    expect(texts("Walk me through dayjs('2020-01-31').add(1, 'month') in order")).toEqual(["dayjs", "add"]);
    expect(texts("Which parts of flask call isinstance, and where?")).toEqual(["isinstance"]);
    expect(texts("Which parts use the cache?")).toEqual([]);
    // The subject of "call": a plain word before the verb names a function; a pronoun does not.
    expect(texts("Which functions does urlopen call, directly or through one helper?")).toEqual(["urlopen"]);
    expect(texts("Which parts call isinstance, and how do they depend on each other?")).toEqual([
      "isinstance",
    ]);
    // The receiver of a qualified call is part of it, no subject of its own.
    const chained = texts('What happens when I call log.WithField("user", id).Info("logged in")?');
    expect(chained.slice(0, 2)).toEqual(["log.WithField", "Info"]);
    expect(chained).not.toContain("log");
  });

  it("reads a decorator or annotation written with its sigil as code, not an address", () => {
    const texts = (q: string) => subjectMentions(q).map((m) => m.text);
    expect(subjectMentions("What happens when I call a function decorated with @retry?")).toContainEqual(
      expect.objectContaining({ text: "retry", kind: "symbol", noun: "decorator" }),
    );
    expect(subjectMentions("Where is @Transactional handled?")[0]).toMatchObject({
      text: "Transactional",
      kind: "symbol",
      noun: "decorator",
    });
    expect(texts("Mail me at ops@example.com about it")).not.toContain("example");
    expect(texts("Does it import @scope/pkg?")).not.toContain("scope");
  });

  it("reads a name owned by a crate or module in prose as its chain", () => {
    const mention = subjectMentions("Which parts use tracing_core's set_global_default, and how?").find((m) =>
      m.parts.includes("set_global_default"),
    );
    expect(mention?.parts).toEqual(["tracing_core", "set_global_default"]);
    expect(subjectMentions("Which of zustand's files matter?").map((m) => m.text)).not.toContain(
      "zustand::files",
    );
  });

  it("reads a method named through its owner's words as the chains it may mean", () => {
    const owned = subjectMentions("What triggers it — who calls the log cleaner's run method?").filter(
      (m) => m.prose,
    );
    expect(owned.map((m) => m.parts)).toEqual([
      ["log_cleaner", "run"],
      ["cleaner", "run"],
    ]);
    expect(owned[0]?.text).toBe("log cleaner's run method");
    const index = buildSubjectIndex([
      row("google.LogCleaner.Run", "src/logging.cc"),
      row("google.LogFileObject.Run", "src/logging.cc"),
    ]);
    expect(matchMention(index, owned[0] as (typeof owned)[number]).map((r) => r.qualifiedName)).toEqual([
      "google.LogCleaner.Run",
    ]);
    expect(subjectMentions("Which of the store's records are saved?").filter((m) => m.prose)).toEqual([]);
  });

  it("leaves out URLs, versions and prose abbreviations", () => {
    const texts = subjectMentions("See https://example.com/a/b, e.g. version 1.2.3 of it").map((m) => m.text);
    expect(texts).toEqual([]);
  });
});

describe("matching a chain against the index", () => {
  const index = buildSubjectIndex([
    row("Sinatra.Base.route!", "lib/sinatra/base.rb"),
    row("Sinatra.Base", "lib/sinatra/base.rb", "class", 40),
    row("Server.Start", "server.go"),
    row("get", "requests/api.py", "function", 12),
    row("Session.get", "requests/sessions.py"),
    row("get", "tests/test_api.py", "function"),
    row("Scheduler", "app/scheduler.py", "class", 3),
    row("schedule", "app/jobs.py", "function"),
    row("get_user", "app/users.py", "function"),
  ]);

  it("matches enclosing names in order, then module folders and files", () => {
    expect(matchChain(index, ["Sinatra", "Base", "route!"], null)[0]?.path).toBe("lib/sinatra/base.rb");
    expect(matchChain(index, ["Server", "Start"], null)[0]?.qualifiedName).toBe("Server.Start");
    expect(matchChain(index, ["requests", "get"], null).map((r) => r.qualifiedName)).toEqual([
      "get",
      "Session.get",
    ]);
    expect(matchChain(index, ["Session", "get"], null).map((r) => r.qualifiedName)).toEqual(["Session.get"]);
    expect(matchChain(index, ["Other", "get"], null)).toEqual([]);
  });

  it("ignores case and underscores, and ranks code above tests", () => {
    expect(matchChain(index, ["getUser"], null)[0]?.qualifiedName).toBe("get_user");
    expect(matchChain(index, ["get"], null).map((r) => r.path)[0]).toBe("requests/api.py");
  });

  it("matches a word named as a type by its stem", () => {
    expect(matchTerm(index, "schedulers", "class").map((r) => r.qualifiedName)).toEqual(["Scheduler"]);
    expect(matchTerm(index, "jobs", null)).toEqual([]);
  });
});

describe("a mention at the end of a question", () => {
  const index = buildSubjectIndex([
    row("Session.merge_environment_settings", "requests/sessions.py"),
    row("User.valid?", "app/models/user.rb"),
  ]);
  const mention = (q: string, text: string) => subjectMentions(q).find((m) => m.text === text);

  it("matches the name without the question mark that ends the question", () => {
    const m = mention(
      "What calls Session.merge_environment_settings?",
      "Session.merge_environment_settings?",
    );
    expect(m).toBeDefined();
    expect(matchMention(index, m!).map((r) => r.qualifiedName)).toEqual([
      "Session.merge_environment_settings",
    ]);
  });

  it("keeps a mark that is part of the name", () => {
    const m = mention("Who calls User.valid?", "User.valid?");
    expect(matchMention(index, m!).map((r) => r.qualifiedName)).toEqual(["User.valid?"]);
  });
});

describe("a method on a variable named after its type", () => {
  // `validate` is everyone's: a rule's, a component's, each validator's.
  const methods = [
    ...["Rule", "Component", "Chain", "Adaptor", "Selector"].map((c) =>
      row(`Lib.${c}.validate`, `src/${c}.cs`),
    ),
    row("Lib.AbstractValidator.validate", "src/AbstractValidator.cs"),
    row("Lib.IValidator.validate", "src/IValidator.cs"),
    row("Tests.FakeValidator.validate", "tests/FakeValidator.cs"),
  ];

  it("keeps the methods of the classes whose name ends in the variable's (validator.validate)", () => {
    expect(receiverTyped(methods, "validator").map((m) => m.qualifiedName)).toEqual([
      "Lib.AbstractValidator.validate",
      "Lib.IValidator.validate",
    ]);
  });

  it("guesses nothing from a short or unrelated variable name", () => {
    expect(receiverTyped(methods, "v")).toEqual([]);
    expect(receiverTyped(methods, "customer")).toEqual([]);
  });
});
