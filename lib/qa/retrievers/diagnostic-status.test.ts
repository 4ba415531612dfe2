import { describe, expect, it } from "vitest";
import { reportedStatuses, statusForms } from "./diagnostic-status.ts";

describe("the HTTP status a report speaks of", () => {
  it("reads a status by its status word or its reason phrase, not any three digits", () => {
    expect(
      reportedStatuses(
        "Requests to //api/users get a 301 Moved Permanently instead of reaching my handler (line 404 of app.go).",
      ),
    ).toEqual([301]);
    expect(reportedStatuses("PROPFIND comes back with status 405 and no Allow header")).toEqual([405]);
    expect(reportedStatuses("It answers 503 without calling our handler, 200 times a minute")).toEqual([503]);
    expect(reportedStatuses("We retry 3 times and wait 500 ms")).toEqual([]);
  });

  it("spells a status as each language's constant and as a number handed to a call", () => {
    expect(statusForms(301)).toEqual([
      "StatusMovedPermanently",
      "MOVED_PERMANENTLY",
      ":moved_permanently",
      "(301)",
      "(301,",
      "= 301;",
    ]);
    expect(statusForms(405).slice(0, 3)).toEqual([
      "StatusMethodNotAllowed",
      "METHOD_NOT_ALLOWED",
      ":method_not_allowed",
    ]);
  });
});
