import { describe, expect, it } from "vitest";
import { namePieces } from "./breakable-name";

describe("namePieces", () => {
  it("splits after separators only, keeping every character", () => {
    expect(namePieces("Sinatra::Base.call!#dispatch!")).toEqual([
      "Sinatra::",
      "Base.",
      "call!#",
      "dispatch!",
    ]);
    expect(namePieces("Processor.dispatch").join("")).toBe("Processor.dispatch");
    expect(namePieces("process_route")).toEqual(["process_", "route"]);
  });

  it("keeps a file name with its extension and line range", () => {
    expect(namePieces("lib/sinatra/base.rb:1327-1334")).toEqual(["lib/", "sinatra/", "base.rb:1327-1334"]);
    expect(namePieces("pkg/__init__.py")).toEqual(["pkg/", "__init__.py"]);
    expect(namePieces("rack-protection/json_csrf.rb")).toEqual(["rack-", "protection/", "json_", "csrf.rb"]);
  });

  it("leaves a plain word whole", () => {
    expect(namePieces("dispatch")).toEqual(["dispatch"]);
  });
});
