/**
 * Prose the evidence engine lifts from docstrings and docs, and the names it writes
 * outside code spans, read as Markdown: every code span closes, reST/Sphinx markup turns
 * into code spans, examples and field lists stay out, and `__init__`, `*args` or a path
 * with underscores never turn into emphasis.
 */
import remarkParse from "remark-parse";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import {
  code,
  conditionOf,
  escapeInline,
  firstSentence,
  isAuxiliary,
  liftProse,
} from "./evidence-reading.ts";

type Node = { type: string; value?: string; children?: Node[] };

/** The inline nodes of one Markdown paragraph: their types, and the text of the code spans. */
function rendered(markdown: string): { types: Set<string>; codes: string[]; text: string } {
  const types = new Set<string>();
  const codes: string[] = [];
  const walk = (node: Node): string => {
    types.add(node.type);
    if (node.type === "inlineCode") codes.push(node.value ?? "");
    return node.value ?? (node.children ?? []).map(walk).join("");
  };
  const text = walk(unified().use(remarkParse).parse(markdown) as Node);
  return { types, codes, text };
}

describe("prose lifted from a docstring", () => {
  it("turns Sphinx roles and reST literals into code spans", () => {
    const text = liftProse(
      "Return a :class:`~xarray.core.dataset.Dataset` built by :func:`merge` from ``objs`` items.",
    );
    expect(text).toBe("Return a `Dataset` built by `merge` from `objs` items.");
  });

  it("keeps a role's shown text and a reST link's text", () => {
    expect(liftProse("See :meth:`the reader <pkg.Reader.read>` and `the docs <https://x.org>`_ now.")).toBe(
      "See `the reader` and the docs now.",
    );
  });

  it("drops doctests, field lists and literal blocks", () => {
    const doc = [
      "Add two numbers and return the sum.",
      "",
      ">>> add(1, 2)",
      "3",
      ":param a: the first",
      ":rtype: int",
    ].join("\n");
    expect(liftProse(doc)).toBe("Add two numbers and return the sum.");
    expect(liftProse("Use it like this::\n\n    f(`x)\n")).toBe("Use it like this");
    expect(liftProse(">>> f()\n1")).toBe("");
  });

  it("closes no code span it cannot balance: a lone backtick goes", () => {
    const text = liftProse("Parse `timeout` and return the `raw value.");
    expect(text).toBe("Parse `timeout` and return the raw value.");
  });

  it("leaves the rest of an answer outside code when the docstring had an odd backtick", () => {
    const sentence = firstSentence("Wraps the ``socket` call in a retry loop.\n\nMore text.");
    const { types, text } = rendered(`- ${sentence} — a.py:1-5\n- \`next\` — b.py:2-3`);
    expect(text).toContain("a.py:1-5");
    // The second line's name is its own code span, not the tail of an unclosed one.
    expect(rendered(`${sentence} then \`next\``).codes).toEqual(["next"]);
    expect(types.has("emphasis")).toBe(false);
  });

  it("never cuts a sentence inside a code span", () => {
    const sentence = firstSentence("Reads the settings with `config.load(path). Strict` mode on. Then more.");
    expect(sentence).toBe("Reads the settings with `config.load(path). Strict` mode on.");
    const long = firstSentence(
      `Calls ${"word ".repeat(36)}\`a.b(c d e f g h i j k)\` and ${"more ".repeat(30)}`,
    );
    expect((long.match(/`/g) ?? []).length % 2).toBe(0);
    expect(long.endsWith("…")).toBe(true);
  });

  it("keeps dunder names and star arguments literal", () => {
    const sentence = firstSentence("Called by __init__ with *args and **kwargs for the _private cache.");
    const { types, text } = rendered(sentence);
    expect(types.has("emphasis")).toBe(false);
    expect(types.has("strong")).toBe(false);
    expect(text).toBe("Called by __init__ with *args and **kwargs for the _private cache.");
  });
});

describe("names written outside code spans", () => {
  it("read as written, code spans and citations untouched", () => {
    const line = escapeInline("__init__ and *args in `__init__` (pkg/__init__.py:1-9) beside _x_");
    expect(line).toContain("`__init__`");
    expect(line).toContain("pkg/__init__.py:1-9");
    const { types, text } = rendered(line.replace("pkg/__init__.py:1-9", "cite"));
    expect(types.has("emphasis") || types.has("strong")).toBe(false);
    expect(text).toBe("__init__ and *args in __init__ (cite) beside _x_");
  });

  it("a code span holds a name with backticks whole", () => {
    expect(rendered(code("`${a}`")).codes).toEqual(["`${a}`"]);
    expect(code("__init__")).toBe("`__init__`");
  });
});

describe("prose from doc comments that embed HTML or fenced examples", () => {
  it("keeps the words, not the markup or the example", () => {
    expect(
      liftProse(
        'Sets the default <div class="example-wrap"><pre class="ignore">dispatch</pre></div> for a scope.',
      ),
    ).toBe("Sets the default dispatch for a scope.");
    expect(liftProse("Formats the event.\n```rust\nlet x = `y;\n```\nMore.")).toBe("Formats the event.");
    expect(liftProse("Returns a Vec<T> of spans.")).toBe("Returns a Vec<T> of spans.");
  });
});

describe("escaping", () => {
  it("adds no backslash where Markdown reads no markup", () => {
    expect(escapeInline("except: pass in load_settings, record_event and handler_1")).toBe(
      "except: pass in load_settings, record_event and handler_1",
    );
    expect(escapeInline("a < 3 > 2 and a [note]")).toBe("a < 3 > 2 and a [note]");
    // `<T>` is an inline HTML tag to Markdown (it would vanish): escaped.
    expect(escapeInline("Vec<T>")).toBe("Vec\\<T>");
    expect(escapeInline("_registry and __init__ and <div>")).toBe(
      "\\_registry and \\_\\_init\\_\\_ and \\<div>",
    );
  });
});

describe("isAuxiliary", () => {
  it.each([
    "src/logging_unittest.cc",
    "src/breaker_test.go",
    "src/test/java/com/acme/RouterTest.java",
    "FluentValidation.Tests/RuleTests.cs",
    "crates/core/src/filter_tests.rs",
    "lib/qa/loop.test.ts",
  ])("knows %s for a test", (path) => {
    expect(isAuxiliary(path)).toBe(true);
  });

  it.each(["src/logging.cc", "src/Contest.java", "lib/latest.rs", "src/main/java/com/acme/Router.java"])(
    "knows %s for source",
    (path) => {
      expect(isAuxiliary(path)).toBe(false);
    },
  );
});

describe("the condition a raise is under", () => {
  it("reads the test above a block opened on a line of its own (C#)", () => {
    const source = [
      "public Task<T> Send<T>(IRequest<T> request)",
      "{",
      "    if (handler == null)",
      "    {",
      '        throw new InvalidOperationException($"Handler was not found for request of type {request.GetType()}");',
      "    }",
      "}",
    ].join("\n");
    expect(conditionOf(source, "Handler was not found for request of type {…}")).toBe("handler == null");
  });

  it("finds an interpolated message by its longest piece, and claims no condition in an else branch (Python)", () => {
    const source = [
      "def formatrepr(self):",
      "    if self.argname in available:",
      "        msg = \" recursive dependency involving fixture '{}' detected\".format(self.argname)",
      "    else:",
      "        msg = f\"fixture '{self.argname}' not found\"",
      "    if not tblines:",
      '        raise LookupError(f"cannot find {self.argname!r} in any scope")',
    ].join("\n");
    expect(conditionOf(source, "fixture '{…}' not found")).toBeNull();
    expect(conditionOf(source, "cannot find {…} in any scope")).toBe("not tblines");
  });
});

describe("the condition of a message written over several lines", () => {
  it("finds the message by a piece written on one line (Python)", () => {
    const source = [
      "def unique_variable(name, variables, compat):",
      "    if not equals:",
      "        raise MergeError(",
      '            f"conflicting values for variable {name!r} on objects to be combined. "',
      "            \"You can skip this check by specifying compat='override'.\"",
      "        )",
    ].join("\n");
    const stored =
      "conflicting values for variable {…} on objects to be combined. You can skip this check by specifying compat='override'.";
    expect(conditionOf(source, stored)).toBe("not equals");
  });
});
