/**
 * The settings mermaid draws with, and the size its SVG is shown at. Pure, so both are
 * unit-tested without a browser.
 *
 * Readable at the default zoom: every diagram type is drawn at its natural size
 * (`useMaxWidth: false`; a wide one scrolls instead of shrinking its labels), in the
 * page's font, with no label below 12 px. Safe: `securityLevel: "strict"` (labels are
 * sanitised, click handlers and scripts refused) and no error picture inserted into
 * the page (the component shows the source and mermaid's message instead).
 */
import type { MermaidConfig } from "mermaid";

/**
 * Text some diagram types draw below 12 px by default: gantt tasks (11 px) and axis
 * ticks (10 px), git graph commit and tag labels (10 px), C4 type and description
 * lines (0.75 em).
 */
const READABLE_CSS = [
  "foreignObject * { overflow-wrap: normal; }",
  ".tick text { font-size: 12px; }",
  ".c4-shape .label .c4-type, .c4-shape .label .c4-descr { font-size: max(12px, 0.82em); }",
].join("\n");

/**
 * Settings a diagram's own `%%{init: …}%%` directive may not change (on top of
 * mermaid's own list: the security level and the like): a model writing one cannot
 * shrink the text, restyle the page's font, turn HTML labels off or add CSS.
 */
const LOCKED = [
  "theme",
  "themeVariables",
  "themeCSS",
  "fontFamily",
  "altFontFamily",
  "fontSize",
  "htmlLabels",
  "dompurifyConfig",
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The configuration for `mermaid.initialize`. `defaults` is mermaid's own default
 * configuration: every diagram type in it that can scale itself to the container is
 * told not to, including types added by later versions.
 */
export function mermaidSettings(fontFamily: string, defaults: MermaidConfig): MermaidConfig {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) {
    if (isRecord(value) && "useMaxWidth" in value) settings[key] = { useMaxWidth: false };
  }
  settings.gantt = { ...(settings.gantt as object), fontSize: 12, sectionFontSize: 12 };
  return {
    ...settings,
    startOnLoad: false,
    securityLevel: "strict",
    suppressErrorRendering: true,
    theme: "neutral",
    htmlLabels: true,
    fontFamily,
    fontSize: 14,
    themeVariables: { fontFamily, fontSize: "14px", commitLabelFontSize: "12px", tagLabelFontSize: "12px" },
    themeCSS: READABLE_CSS,
    secure: [...new Set([...(defaults.secure ?? []), ...LOCKED])],
  };
}

/**
 * The SVG drawn at the size its view box says. mermaid gives some diagram types a
 * height that does not match their view box (a sequence diagram comes out at 94 %,
 * labels shrinking with it) and others a width of 100 % with a maximum; this sets the
 * opening tag's width and height to the view box's and drops the maximum.
 */
export function naturalSize(svg: string): string {
  const open = /^<svg\b[^>]*>/.exec(svg)?.[0];
  const box = open && /\sviewBox="[-\d.e]+[\s,]+[-\d.e]+[\s,]+([\d.e]+)[\s,]+([\d.e]+)"/.exec(open);
  if (!open || !box) return svg;
  const sized = open
    .replace(/\s(width|height)="[^"]*"/g, "")
    .replace(/\sstyle="max-width:[^";]*;?\s*"/, "")
    .replace(/^<svg\b/, `<svg width="${box[1]}" height="${box[2]}"`);
  return sized + svg.slice(open.length);
}
