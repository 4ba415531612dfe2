/** The path checks: a real path inside a root, and why a cited path cannot be looked up. */
import { describe, expect, it } from "vitest";
import { isInsideRoot, unsafePathReason } from "./paths.ts";

describe("isInsideRoot", () => {
  it("holds the root itself and what lies under it, not a sibling sharing its prefix", () => {
    expect(isInsideRoot("/srv/repo", "/srv/repo")).toBe(true);
    expect(isInsideRoot("/srv/repo/src/a.py", "/srv/repo")).toBe(true);
    expect(isInsideRoot("/srv/repository", "/srv/repo")).toBe(false);
    expect(isInsideRoot("/srv", "/srv/repo")).toBe(false);
    expect(isInsideRoot("/etc/passwd", "/srv/repo")).toBe(false);
  });

  it("reads a root written with its trailing separator (the file system's root) as a folder", () => {
    expect(isInsideRoot("/srv/repo", "/")).toBe(true);
    expect(isInsideRoot("/srv/repo/a", "/srv/repo/")).toBe(true);
    expect(isInsideRoot("/srv/repository", "/srv/repo/")).toBe(false);
  });
});

describe("unsafePathReason", () => {
  it("names why a path cannot be in the repository, and passes relative ones", () => {
    expect(unsafePathReason("src/a.py")).toBeNull();
    expect(unsafePathReason("src\\a.py")).toBe("backslash path");
    for (const absolute of ["/etc/passwd", "~/.ssh/id_rsa", "C:/x"])
      expect(unsafePathReason(absolute), absolute).toBe("absolute path");
    expect(unsafePathReason("src/../../x")).toBe("path leaves the repository");
  });
});
