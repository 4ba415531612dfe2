import mermaid from "mermaid";
import { describe, expect, it } from "vitest";
import { mermaidSettings, naturalSize } from "./mermaid-settings";

const FONT = 'system-ui, "Segoe UI", sans-serif';

describe("mermaidSettings", () => {
  const defaults = mermaid.mermaidAPI.defaultConfig;
  const settings = mermaidSettings(FONT, defaults) as Record<string, unknown>;

  it("keeps mermaid strict and lets the page show errors", () => {
    expect(settings.securityLevel).toBe("strict");
    expect(settings.startOnLoad).toBe(false);
    expect(settings.suppressErrorRendering).toBe(true);
  });

  it("keeps a diagram's own init directive from changing the font, its size, the theme or the CSS", () => {
    expect(settings.secure).toEqual(expect.arrayContaining([...(defaults.secure ?? []), "securityLevel"]));
    expect(settings.secure).toEqual(
      expect.arrayContaining(["theme", "themeVariables", "themeCSS", "fontFamily", "fontSize", "htmlLabels"]),
    );
  });

  it("draws every diagram type mermaid has at its natural size, never scaled to the container", () => {
    const scalable = Object.entries(defaults).filter(
      ([, value]) => typeof value === "object" && value !== null && "useMaxWidth" in value,
    );
    // The installed version's own list: sequence, state and the rest, whatever a later version adds.
    expect(scalable.map(([key]) => key)).toEqual(expect.arrayContaining(["flowchart", "sequence", "state"]));
    for (const [key] of scalable) expect(settings[key], key).toMatchObject({ useMaxWidth: false });
  });

  it("writes in the page's font and raises the text some diagram types draw below 12 px", () => {
    expect(settings.fontFamily).toBe(FONT);
    expect(settings.themeVariables).toMatchObject({
      fontFamily: FONT,
      fontSize: "14px",
      commitLabelFontSize: "12px",
      tagLabelFontSize: "12px",
    });
    expect(settings.gantt).toMatchObject({ useMaxWidth: false, fontSize: 12, sectionFontSize: 12 });
    expect(settings.themeCSS).toContain(".tick text { font-size: 12px; }");
  });
});

describe("naturalSize", () => {
  it("sizes the SVG as its view box says, so a sequence diagram is not drawn at 94 %", () => {
    const svg =
      '<svg id="d1" width="461" height="472" viewBox="-50 -10 461 502" role="graphics-document document"><g/></svg>';
    expect(naturalSize(svg)).toBe(
      '<svg width="461" height="502" id="d1" viewBox="-50 -10 461 502" role="graphics-document document"><g/></svg>',
    );
  });

  it("replaces a width of 100 % and its maximum with the view box's size", () => {
    const svg =
      '<svg id="d2" width="100%" style="max-width: 700px;" viewBox="0 0 700 500"><text>a</text></svg>';
    expect(naturalSize(svg)).toBe(
      '<svg width="700" height="500" id="d2" viewBox="0 0 700 500"><text>a</text></svg>',
    );
  });

  it("leaves an SVG without a view box as it is", () => {
    const svg = '<svg id="d3" width="10" height="10"><rect width="5" height="5"/></svg>';
    expect(naturalSize(svg)).toBe(svg);
  });
});
