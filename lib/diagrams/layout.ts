/**
 * Lays a diagram out on the server with ELK's layered algorithm (elkjs: crossing
 * minimisation, orthogonal edge routing, nested groups), so that browsers only draw
 * boxes and lines: a page shows its diagram with its first paint, labels keep a
 * readable size (the drawing scrolls instead of shrinking), and a shared answer looks
 * the same everywhere. Layouts are kept per mermaid source, so a diagram is laid out
 * once per process however often it is shown.
 */
import "server-only";
import type { ELK, ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js";
import { wrapLabel } from "./labels.ts";
import { parseMermaid, type ParsedDiagram } from "./mermaid.ts";
import type { DiagramLayout, DiagramPart, LaidOutEdge } from "./types.ts";

/** Label font size in CSS pixels (the drawing is shown at 1:1). */
export const FONT_SIZE = 13;
export const LINE_HEIGHT = 17;
/** Labels are set in a monospace font, so their width is known without measuring text. */
const CHAR_WIDTH = FONT_SIZE * 0.62;
const PAD_X = 12;
const PAD_Y = 8;
/** Labels wrap at this many characters, or at the narrower widths when a diagram is too wide. */
const LABEL_CHARS = [24, 16, 12];
/** The room a diagram has at 1400 px (an answer's main column, a wiki page): this wide needs no scrolling. */
const FITS_WIDTH = 800;
const CACHE_SIZE = 256;

// Loaded on the first diagram: processes that never draw one (the CLI, index workers) skip its 1.6 MB.
let elkInstance: Promise<ELK> | null = null;

function elk(): Promise<ELK> {
  elkInstance ??= import("elkjs/lib/elk.bundled.js").then(
    ({ default: ElkConstructor }) => new ElkConstructor(),
  );
  return elkInstance;
}

const cache = new Map<string, Promise<DiagramLayout>>();

function textWidth(lines: string[]): number {
  return Math.max(...lines.map((l) => l.length)) * CHAR_WIDTH;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function weightOf(label: string | null): number | null {
  if (!label || !/^\d+$/.test(label)) return null;
  const n = Number(label);
  return n > 1 ? n : null;
}

/** The ELK graph of a parsed diagram, with label sizes computed from the wrapped text. */
function elkGraph(parsed: ParsedDiagram, direction: "LR" | "TD", labelChars: number): ElkNode {
  const groupChildren = new Map<string | null, ElkNode[]>();
  const push = (parent: string | null, child: ElkNode) =>
    groupChildren.set(parent, [...(groupChildren.get(parent) ?? []), child]);
  for (const node of parsed.nodes) {
    const lines = wrapLabel(node.label, labelChars);
    push(node.group, {
      id: node.id,
      width: Math.max(56, textWidth(lines) + 2 * PAD_X),
      height: lines.length * LINE_HEIGHT + 2 * PAD_Y,
    });
  }
  const groupNode = (id: string, label: string): ElkNode => {
    const lines = wrapLabel(label, 48);
    return {
      id,
      labels: [{ text: label, width: textWidth(lines), height: lines.length * LINE_HEIGHT }],
      layoutOptions: {
        "elk.padding": `[top=${lines.length * LINE_HEIGHT + 16},left=12,bottom=12,right=12]`,
        "elk.nodeLabels.placement": "INSIDE V_TOP H_LEFT",
      },
      children: [],
    };
  };
  const groups = new Map(parsed.groups.map((g) => [g.id, groupNode(g.id, g.label)]));
  for (const g of parsed.groups) {
    const node = groups.get(g.id) as ElkNode;
    node.children = [...(groupChildren.get(g.id) ?? []), ...(node.children ?? [])];
    push(g.parent, node);
  }
  const edges: ElkExtendedEdge[] = parsed.edges.map((e, i) => {
    const weight = weightOf(e.label);
    return {
      id: `e${i}`,
      sources: [e.from],
      targets: [e.to],
      labels: weight ? [{ text: String(weight), width: String(weight).length * 7 + 8, height: 15 }] : [],
    };
  });
  return {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": direction === "LR" ? "RIGHT" : "DOWN",
      "elk.hierarchyHandling": "INCLUDE_CHILDREN",
      "elk.json.edgeCoords": "ROOT",
      "elk.json.shapeCoords": "ROOT",
      "elk.edgeRouting": "ORTHOGONAL",
      "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
      "elk.layered.spacing.nodeNodeBetweenLayers": "44",
      "elk.spacing.nodeNode": "18",
      "elk.spacing.edgeNode": "14",
      "elk.spacing.edgeEdge": "10",
      "elk.edgeLabels.placement": "CENTER",
      "elk.padding": "[top=6,left=6,bottom=6,right=6]",
    },
    children: groupChildren.get(null) ?? [],
    edges,
  };
}

/** ELK's result as the few numbers a browser needs to draw it. */
function toLayout(parsed: ParsedDiagram, laid: ElkNode, labelChars: number): DiagramLayout {
  const boxes = new Map<string, ElkNode>();
  const walk = (n: ElkNode) => {
    boxes.set(n.id, n);
    n.children?.forEach(walk);
  };
  walk(laid);
  const box = (id: string) => {
    const b = boxes.get(id);
    return {
      x: round(b?.x ?? 0),
      y: round(b?.y ?? 0),
      width: round(b?.width ?? 0),
      height: round(b?.height ?? 0),
    };
  };
  const edges: LaidOutEdge[] = (laid.edges ?? []).map((e, i) => {
    const source = parsed.edges[i];
    const points: [number, number][] = [];
    for (const s of e.sections ?? []) {
      for (const p of [s.startPoint, ...(s.bendPoints ?? []), s.endPoint])
        points.push([round(p.x), round(p.y)]);
    }
    const label = e.labels?.[0];
    return {
      from: source?.from ?? "",
      to: source?.to ?? "",
      weight: weightOf(source?.label ?? null),
      points,
      labelAt:
        label && label.x !== undefined && label.y !== undefined
          ? [round(label.x + (label.width ?? 0) / 2), round(label.y + (label.height ?? 0) / 2)]
          : null,
    };
  });
  return {
    width: Math.ceil(laid.width ?? 0),
    height: Math.ceil(laid.height ?? 0),
    fontSize: FONT_SIZE,
    lineHeight: LINE_HEIGHT,
    groups: parsed.groups.map((g) => ({ id: g.id, ...box(g.id), lines: wrapLabel(g.label, 48) })),
    nodes: parsed.nodes.map((n) => ({
      id: n.id,
      ...box(n.id),
      lines: wrapLabel(n.label, labelChars),
      shape: n.shape,
      cycle: n.classes.includes("cycle"),
    })),
    edges,
  };
}

async function computeLayout(mermaid: string): Promise<DiagramLayout> {
  const parsed = parseMermaid(mermaid);
  const engine = await elk();
  const other = parsed.direction === "LR" ? "TD" : "LR";
  // The source's direction first; when too wide for the column, the other direction and
  // narrower labels may fit without scrolling sideways. Otherwise the narrowest wins.
  const candidates = LABEL_CHARS.flatMap((chars) => [
    [parsed.direction, chars],
    [other, chars],
  ]) as ["LR" | "TD", number][];
  let best: DiagramLayout | null = null;
  for (const [direction, chars] of candidates) {
    const layout = toLayout(parsed, await engine.layout(elkGraph(parsed, direction, chars)), chars);
    if (layout.width <= FITS_WIDTH) return layout;
    if (!best || layout.width < best.width) best = layout;
  }
  return best as DiagramLayout;
}

/** The layout of a diagram's mermaid source (DiagramSyntaxError when it cannot be read). */
export function layoutMermaid(mermaid: string): Promise<DiagramLayout> {
  const known = cache.get(mermaid);
  if (known) {
    // Most recently used last, so the oldest entry is evicted first.
    cache.delete(mermaid);
    cache.set(mermaid, known);
    return known;
  }
  const layout = computeLayout(mermaid);
  cache.set(mermaid, layout);
  layout.catch(() => cache.delete(mermaid));
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return layout;
}

/**
 * The part with its layout, ready to draw. A part that already has one is returned as
 * it is; one whose source cannot be read stays without, and pages show its source.
 */
export async function withLayout(part: DiagramPart): Promise<DiagramPart> {
  if (part.layout) return part;
  try {
    return { ...part, layout: await layoutMermaid(part.mermaid) };
  } catch (error) {
    return { ...part, layoutError: error instanceof Error ? error.message : String(error) };
  }
}
