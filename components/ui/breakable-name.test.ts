import { describe, expect, it } from "vitest";
import { namePieces } from "./breakable-name";

describe("namePieces", () => {
  it("splits after separators only, keeping every character", () => {
    expect(namePieces("lib/sinatra/base.rb::Sinatra.Base#dispatch!")).toEqual([
      "lib/",
      "sinatra/",
      "base.",
      "rb::",
      "Sinatra.",
      "Base#",
      "dispatch!",
    ]);
    expect(namePieces("Processor.dispatch").join("")).toBe("Processor.dispatch");
    expect(namePieces("process_route")).toEqual(["process_", "route"]);
  });

  it("leaves a plain word whole", () => {
    expect(namePieces("dispatch")).toEqual(["dispatch"]);
  });
});
