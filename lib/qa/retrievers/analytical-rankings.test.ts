import { describe, expect, it } from "vitest";
import { codeInTitle } from "./analytical-rankings.ts";

describe("a finding's title in an answer", () => {
  it("quotes the code it names as code, and leaves paths and prose alone", () => {
    expect(codeInTitle("except Exception: pass in PytestPluginManager.__init__")).toBe(
      "`except Exception: pass` in `PytestPluginManager.__init__`",
    );
    expect(codeInTitle("error discarded with _ = err in Client.Do")).toBe(
      "error discarded with `_ = err` in `Client.Do`",
    );
    expect(codeInTitle("Module state _registry in lib/plugin_loader.rb is written from 3 functions")).toBe(
      "Module state `_registry` in lib/plugin_loader.rb is written from 3 functions",
    );
    expect(codeInTitle("4 TODO/FIXME markers in src/io_util.c (2.5 per 100 lines)")).toBe(
      "4 TODO/FIXME markers in src/io_util.c (2.5 per 100 lines)",
    );
    expect(codeInTitle("Import cycle between 7 files")).toBe("Import cycle between 7 files");
  });
});
