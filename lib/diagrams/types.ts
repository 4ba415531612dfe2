/**
 * Shapes of a diagram as it travels: the part an answer or a wiki page carries (its
 * mermaid source, the source location of each node, and — once drawn — its layout),
 * and the layout itself, positions computed on the server so every page shows the
 * same picture at once without a diagram library in the browser.
 */

/** A node of a diagram with the source location it links to (null: not linked). */
export interface DiagramNode {
  id: string;
  label: string;
  path: string | null;
  startLine: number | null;
  endLine: number | null;
}

export interface DiagramPart {
  kind: "dependencies" | "call-flow" | "error-path";
  title: string;
  /** the graph as mermaid flowchart source: what agents, the wiki's Markdown and old answers carry */
  mermaid: string;
  nodes: DiagramNode[];
  /** positions for drawing, added by the server (lib/diagrams/layout.ts); absent until drawn */
  layout?: DiagramLayout;
  /** why it could not be laid out (its source is shown instead) */
  layoutError?: string;
}

/** Node shapes: a file or symbol, a folder or module outside the picture, and a "+ N more" group. */
export type NodeShape = "box" | "module" | "more";

export interface LaidOutNode {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** the label wrapped at path separators and word boundaries, one entry per line */
  lines: string[];
  shape: NodeShape;
  /** drawn outlined in red: part of a cycle */
  cycle: boolean;
}

/** A box around nodes that belong together (the folder or file a diagram is about). */
export interface LaidOutGroup {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
}

export interface LaidOutEdge {
  from: string;
  to: string;
  /** how many imports or calls the arrow stands for (null: one, unlabelled) */
  weight: number | null;
  /** polyline through these points, from the source node to the target node */
  points: [number, number][];
  /** where the weight is written (centre of its label box) */
  labelAt: [number, number] | null;
}

export interface DiagramLayout {
  width: number;
  height: number;
  /** font size of node labels in CSS pixels; the drawing is never scaled down */
  fontSize: number;
  lineHeight: number;
  groups: LaidOutGroup[];
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}
