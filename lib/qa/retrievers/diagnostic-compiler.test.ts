import { describe, expect, it } from "vitest";
import { compilerSubject } from "./diagnostic-compiler.ts";

describe("compilerSubject", () => {
  it("reads the method and type of rustc's unmet trait bounds (E0599)", () => {
    const report = [
      "error[E0599]: the method `context` exists for enum `Result<Config, ParseError>`, but its trait bounds were not satisfied",
      "  --> src/config.rs:41:10",
    ].join("\n");
    expect(compilerSubject(report)).toEqual({ member: "context", type: "Result", trait: null });
  });

  it("reads the trait rustc finds unmet (E0277), without its path", () => {
    const report =
      "error[E0277]: the trait bound `ParseError: std::error::Error` is not satisfied\n --> src/main.rs:3:5";
    expect(compilerSubject(report)).toEqual({ member: null, type: null, trait: "Error" });
  });

  it("reads tsc's missing property and Go's missing method", () => {
    expect(
      compilerSubject("src/app.ts(12,7): error TS2339: Property 'json' does not exist on type 'KyResponse'."),
    ).toEqual({ member: "json", type: "KyResponse", trait: null });
    expect(
      compilerSubject("./main.go:14:6: r.Walk undefined (type *mux.Router has no field or method Walk)"),
    ).toEqual({ member: "Walk", type: "Router", trait: null });
  });

  it("reads nothing from a runtime error that only names a method", () => {
    expect(
      compilerSubject("TypeError: the method `context` exists on Result but fails at runtime"),
    ).toBeNull();
  });
});
