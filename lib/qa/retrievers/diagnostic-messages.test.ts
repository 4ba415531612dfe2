/**
 * A reported message matched to the templates that wrote it: a family of templates sharing
 * their wording keeps only the member producing the whole message, a wrapper's placeholder
 * yields the message it held, and a string literal of code that wrote part of a message is
 * recognised (whole or as a template).
 */
import { describe, expect, it } from "vitest";
import {
  producers,
  reportHeadings,
  templateMatches,
  producesMessage,
  writtenPiece,
} from "./diagnostic-messages.ts";

const sym = (qualifiedId: string, ...strings: string[]) => ({
  qualifiedId,
  errorStrings: JSON.stringify(strings),
});

describe("diagnostic messages", () => {
  it("keeps the member of a template family that produces the whole message", () => {
    const family = [
      sym(
        "c.java::validateNestingDepth",
        "Document nesting depth (%d) exceeds the maximum allowed (%d, from %s)",
      ),
      sym(
        "c.java::validateStringLength",
        "String value length (%d) exceeds the maximum allowed (%d, from %s)",
      ),
      sym("c.java::validateNameLength", "Name length (%d) exceeds the maximum allowed (%d, from %s)"),
    ];
    const message =
      "String value length (20000001) exceeds the maximum allowed (20000000, from `getMaxStringLength()`)";
    expect(producers(family, message).map((s) => s.qualifiedId)).toEqual(["c.java::validateStringLength"]);
    // When none of them is a template producing it, the fragment's finds all stand.
    expect(producers(family, "exceeds the maximum allowed").length).toBe(3);
  });

  it("follows a wrapper's placeholder into the message it held (Go %w, PHP sprintf)", () => {
    const symbols = [
      sym("config.go::Load", "load config %s: %w"),
      sym("Parser.php::Parser.parse", "Failed to parse dotenv file. %s"),
    ];
    const matched = templateMatches(symbols, [
      "load config /etc/app.yaml: open /etc/app.yaml: no such file or directory",
      "Failed to parse dotenv file. Encountered unexpected whitespace at [My Shop Name].",
    ]);
    expect(matched.map((m) => [m.symbol.qualifiedId, m.filled])).toEqual([
      ["config.go::Load", ["open /etc/app.yaml: no such file or directory"]],
      ["Parser.php::Parser.parse", ["Encountered unexpected whitespace at [My Shop Name]."]],
    ]);
    // A placeholder holding a value (a path, a number) is not a message of its own.
    expect(
      templateMatches([sym("a.go::f", "bad port %d in config")], ["bad port 8080 in config"])[0]?.filled,
    ).toEqual([]);
  });

  it("finds the literal of code that wrote part of a message, whole or as a template", () => {
    const message = "Encountered unexpected whitespace at [My Shop Name].";
    expect(writtenPiece("return Error::create('unexpected whitespace');", message)).toBe(
      "unexpected whitespace",
    );
    expect(writtenPiece("return \\sprintf('Encountered %s at [%s].', $cause, $subject);", message)).toBe(
      "Encountered %s at [%s].",
    );
    expect(writtenPiece("return Error::create('unexpected escape');", message)).toBeNull();
    expect(producesMessage("%s", "anything at all")).toBe(false);
  });

  it("reads the headings of a quoted report's layout after its message, not the prose's", () => {
    const question = [
      "Steps:",
      "When our CLI fails it prints",
      "",
      "Error: failed to load settings from /etc/app/settings.toml",
      "",
      "Caused by:",
      "    0: failed to parse TOML",
      "    1: expected `=`, found newline at line 3 column 9",
      "",
      "Where is this layout decided?",
    ].join("\n");
    expect(reportHeadings(question, ["failed to load settings from /etc/app/settings.toml"])).toEqual([
      "Caused by:",
    ]);
    // Without a quoted message the whole question is read; a one-word heading is prose's.
    expect(reportHeadings(question, [])).toEqual(["Caused by:"]);
    const fatal =
      "F0612 10:22:31 session.cc:88] Check failed: conn\n*** Check failure stack trace: ***\n    @ 0x7f3a google::LogMessage::Fail()";
    expect(reportHeadings(fatal, [])).toEqual(["Check failure stack trace:"]);
  });
});
