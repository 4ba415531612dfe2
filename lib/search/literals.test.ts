import { describe, expect, it } from "vitest";
import { withoutLiterals } from "./literals.ts";

describe("withoutLiterals", () => {
  it("leaves out the URLs, hosts and routes a question quotes as examples", () => {
    expect(withoutLiterals("Why does `got('https://api.example.com/items?x=1')` retry?")).not.toMatch(
      /https|example|items/,
    );
    expect(withoutLiterals("When api.example.com:8080/v1 answers 302, who follows it?")).not.toMatch(
      /api|example/,
    );
    expect(withoutLiterals("A GET /articles/42 reaches the router before /articles/{id} runs")).not.toMatch(
      /articles/,
    );
    expect(withoutLiterals("When api.example.com answers 302, what happens?")).toContain("answers 302");
  });

  it("keeps file paths, which name code, and text that is all literal", () => {
    expect(withoutLiterals("What does src/router/tree.go compute?")).toContain("src/router/tree.go");
    expect(withoutLiterals('File "/app/models/user.py:12", in save')).toContain("/app/models/user.py:12");
    expect(withoutLiterals("https://example.com/reset")).toBe("https://example.com/reset");
  });
});
