/**
 * Messages of code matched to messages as a report writes them back: the values filled
 * in, the code's quotes and brackets dropped or changed, in the format strings of every
 * language the index reads.
 */
import { describe, expect, it } from "vitest";
import {
  holdsWords,
  matchMessage,
  messageTemplatePattern,
  messageWords,
  sharedRun,
  writesMessage,
} from "./message-text.ts";

describe("a message of code matched to a message written back", () => {
  it("matches a literal whose quotes and brackets the report left out", () => {
    const literal = "Number of opening '[' and closing ']' does not match";
    const asked =
      "Why do I get BadRouteException: Number of opening [ and closing ] does not match when I add a route?";
    expect(writesMessage(literal, asked)).toBe(true);
    expect(writesMessage(literal, 'I get "Number of opening `[` and closing `]` does not match"')).toBe(true);
    // Another message of the same function is not matched by it.
    expect(writesMessage("Optional segments can only occur at the end of a route", asked)).toBe(false);
    // Words must end where the code's end: "key" is not "keys".
    expect(writesMessage("no such key in table", "no such keys in table")).toBe(false);
  });

  it("fills the placeholders of each language's format strings with the report's values", () => {
    const cases: [string, string][] = [
      // Python %, str.format and f-strings (the indexer writes `{…}` for an interpolation)
      ["fixture '%s' not found", "E       fixture 'db_session' not found"],
      ["%(name)s is not a valid option", "'colour' is not a valid option"],
      ["Invalid URL {0!r}: No schema supplied", "Invalid URL 'example.com': No schema supplied"],
      ["no order with id {…} in batch {…}", "KeyError: no order with id 42 in batch nightly"],
      // Go fmt.Errorf with %q and a wrapped %w
      ["route %q: unknown method %s", 'error: route "/users": unknown method PROPFIND'],
      ["load config %s: %w", "load config /etc/app.yaml: open /etc/app.yaml: no such file or directory"],
      // Rust format!/panic! with positional and debug placeholders
      [
        "index out of bounds: the len is {} but the index is {:?}",
        "panicked: index out of bounds: the len is 3 but the index is 5",
      ],
      // JavaScript template literal, C# interpolation, Ruby #{}
      [
        "Request timed out: {…} {…}",
        "TimeoutError: Request timed out: POST https://api.example.com/v1/exports",
      ],
      ["Handler for {…} was not found", "System.InvalidOperationException: Handler for Ping was not found"],
      ["undefined method `#{name}' for #{receiver}", "undefined method 'frobnicate' for nil"],
      // C printf with a length modifier
      ["buffer of %zu bytes exceeds limit %lu", "buffer of 4096 bytes exceeds limit 1024"],
    ];
    for (const [template, said] of cases) expect(writesMessage(template, said), template).toBe(true);
  });

  it("captures what each placeholder held, a punctuation-only piece separating two of them", () => {
    const wrapped = matchMessage(
      "load config %s: %w",
      "load config /etc/app.yaml: open /etc/app.yaml: no such file",
    );
    expect(wrapped).toEqual(["/etc/app.yaml", "open /etc/app.yaml: no such file"]);
    const sentence = matchMessage(
      "Failed to parse dotenv file. %s",
      "Failed to parse dotenv file. Encountered unexpected whitespace at [My Shop Name].",
    );
    // What a placeholder held comes back as the text writes it, not lower-cased.
    expect(sentence).toEqual(["Encountered unexpected whitespace at [My Shop Name]."]);
    // Too little literal text to tell one template from another.
    expect(messageTemplatePattern("%s: %s")).toBeNull();
  });

  it("measures how much of a message was written from memory", () => {
    const literal = "JWT signature does not match locally computed signature.";
    expect(sharedRun(literal, "it says the signature does not match locally computed one")).toBe(6);
    // A run does not cross a placeholder.
    expect(sharedRun("fixture %s not found", "fixture not found")).toBe(2);
    expect(holdsWords("Error: Über Größe fehlt!", "über größe")).toBe(true);
    expect(messageWords("Can't read `{}` (os error %d)")).toEqual(["can", "t", "read", "os", "error"]);
  });
});
