import { describe, expect, it } from "vitest";
import { wrapLabel } from "./labels.ts";

/** A break between two letters or digits of one word is what a reader must never see. */
function breaksMidWord(lines: string[]): boolean {
  return lines
    .slice(0, -1)
    .some((line, i) => /[A-Za-z0-9]$/.test(line) && /^[A-Za-z0-9]/.test(lines[i + 1] ?? ""));
}

describe("wrapLabel", () => {
  it("wraps paths after a separator and names after a dot", () => {
    expect(wrapLabel("rack-protection/lib/rack/protection/base.rb", 24)).toEqual([
      "rack-protection/lib/",
      "rack/protection/base.rb",
    ]);
    expect(wrapLabel("Sinatra.Request.AcceptEntry.respond_to?", 24)).toEqual([
      "Sinatra.Request.",
      "AcceptEntry.respond_to?",
    ]);
    expect(wrapLabel("app::Server::handle_request", 16)).toEqual(["app::Server::", "handle_request"]);
  });

  it("keeps a file name with its extension", () => {
    expect(wrapLabel("test/test_helper.rb", 12)).toEqual(["test/test_", "helper.rb"]);
    expect(wrapLabel("lib/sinatra/indifferent_hash.rb", 12)).toEqual([
      "lib/sinatra/",
      "indifferent_",
      "hash.rb",
    ]);
  });

  it("keeps short labels on one line", () => {
    expect(wrapLabel("lib/metrics", 24)).toEqual(["lib/metrics"]);
  });

  it("breaks an overlong part only after _ or -, and never inside a word", () => {
    const lines = wrapLabel("pkg/content_security_policy_configuration_loader.py", 20);
    expect(breaksMidWord(lines)).toBe(false);
    expect(lines.join("")).toBe("pkg/content_security_policy_configuration_loader.py");
    expect(lines.every((l) => /[/_]$/.test(l) || l === lines.at(-1))).toBe(true);
  });

  it("leaves a word that cannot be split whole, however long", () => {
    expect(wrapLabel("lib/AbstractSingletonProxyFactoryBean.java", 16)).toEqual([
      "lib/",
      "AbstractSingletonProxyFactoryBean.java",
    ]);
  });

  it("never breaks mid-word on the labels of a real index", () => {
    const labels = [
      "sinatra-contrib/lib/sinatra/extension.rb",
      "Sinatra::Helpers::Stream::Base#each",
      "xarray.core.dataarray.DataArray.to_dataframe",
      "+ 9 more in test/integration/",
      "lib/metrics",
    ];
    for (const label of labels) {
      const lines = wrapLabel(label, 24);
      expect(breaksMidWord(lines), label).toBe(false);
      expect(lines.join("").replace(/ /g, ""), label).toBe(label.replace(/ /g, ""));
    }
  });
});
