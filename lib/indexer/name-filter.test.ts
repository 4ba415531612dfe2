/**
 * The per-file name filter decides which files an edit elsewhere may re-resolve: a
 * name the file refers to must always be found (a miss would leave a stale edge), and
 * names it does not refer to should rarely match (each match costs a re-resolution).
 */
import { describe, expect, it } from "vitest";
import { baseName, buildNameFilter, NameProbe, referencedNames } from "./name-filter.ts";

const names = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => `${prefix}_${i}_${(i * 7919) % 1000}`);

describe("name filters", () => {
  it("always find the names they were built from", () => {
    for (const size of [1, 5, 60, 700]) {
      const held = names(size, "held");
      const filter = buildNameFilter(held);
      for (const name of held) expect(new NameProbe([name]).matches(filter)).toBe(true);
      expect(new NameProbe(["absent", held[size - 1] as string]).matches(filter)).toBe(true);
    }
  });

  it("rarely match names they were not built from", () => {
    const filter = buildNameFilter(names(300, "held"));
    const others = names(10_000, "other");
    const hits = others.filter((name) => new NameProbe([name]).matches(filter)).length;
    expect(hits / others.length).toBeLessThan(0.02);
  });

  it("match nothing when empty, and anything they cannot read", () => {
    expect(buildNameFilter([])).toBe("");
    expect(new NameProbe(["x"]).matches("")).toBe(false);
    expect(new NameProbe([]).matches(buildNameFilter(["x"]))).toBe(false);
    expect(new NameProbe(["x"]).matches(Buffer.from([1, 2, 3]).toString("base64"))).toBe(true);
  });

  it("hold a symbol's call names and the names its bases are looked up by", () => {
    const symbol = {
      calls: [{ name: "save" }, { name: "merge" }],
      bases: ["models.Base", "Generic<T>", "Mixin(object)"],
    };
    expect(referencedNames(symbol)).toEqual(["save", "merge", "Base", "Generic", "Mixin"]);
    expect(baseName("a::b::Trait")).toBe("Trait");
  });
});
