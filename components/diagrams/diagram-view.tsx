/**
 * Draws a diagram from the layout the server computed (lib/diagrams/layout.ts): boxes,
 * group frames and orthogonal arrows in plain SVG at 1:1 scale, so labels keep their
 * size and a wide diagram scrolls sideways instead of shrinking. Nodes with a source
 * location are links into the source view (keyboard-focusable like any link); a legend
 * says what arrows, numbers, outlines and "+ N more" nodes mean. Without a layout (a
 * source the server's reader refuses) mermaid draws it in the browser, and a source
 * mermaid cannot read either is shown with its message, never a blank box.
 * No hooks: the same component renders on the server (wiki, share page) and in the chat.
 */
import Link from "next/link";
import { sourceHref } from "@/components/source/source-href";
import type { DiagramLayout, DiagramPart, LaidOutEdge, LaidOutNode } from "@/lib/diagrams/types";
import { MermaidDiagram } from "./mermaid-diagram";

const KIND_VERB: Record<DiagramPart["kind"], { verb: string; unit: string }> = {
  dependencies: { verb: "imports from", unit: "imports" },
  "call-flow": { verb: "calls", unit: "calls" },
  "error-path": { verb: "calls", unit: "calls" },
};

/** A short stable id for SVG references (markers), the same on the server and in the browser. */
function idFor(text: string): string {
  let hash = 5381;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) + hash + text.charCodeAt(i)) | 0;
  return `dg${(hash >>> 0).toString(36)}`;
}

function strokeWidth(weight: number | null): number {
  return weight ? Math.min(4.5, 1.4 + Math.log2(weight)) : 1.4;
}

/** An orthogonal polyline with softly rounded corners. */
function edgePath(points: [number, number][]): string {
  if (points.length < 2) return "";
  const [first, ...rest] = points;
  let d = `M${first?.[0]},${first?.[1]}`;
  for (let i = 0; i < rest.length; i++) {
    const [x, y] = rest[i] as [number, number];
    const prev = (i === 0 ? first : rest[i - 1]) as [number, number];
    const next = rest[i + 1];
    if (!next) {
      d += ` L${x},${y}`;
      continue;
    }
    const r = Math.min(6, Math.hypot(x - prev[0], y - prev[1]) / 2, Math.hypot(next[0] - x, next[1] - y) / 2);
    const inX = x - Math.sign(x - prev[0]) * r;
    const inY = y - Math.sign(y - prev[1]) * r;
    const outX = x + Math.sign(next[0] - x) * r;
    const outY = y + Math.sign(next[1] - y) * r;
    d += ` L${inX},${inY} Q${x},${y} ${outX},${outY}`;
  }
  return d;
}

function NodeShape({ node, layout }: { node: LaidOutNode; layout: DiagramLayout }) {
  const radius = node.shape === "module" ? node.height / 2 : 6;
  const textTop = node.y + (node.height - node.lines.length * layout.lineHeight) / 2;
  return (
    <>
      <rect
        className={`diagram-node-box shape-${node.shape}${node.cycle ? " in-cycle" : ""}`}
        x={node.x}
        y={node.y}
        width={node.width}
        height={node.height}
        rx={radius}
      />
      <text className="diagram-node-text" x={node.x + node.width / 2} y={textTop} fontSize={layout.fontSize}>
        {node.lines.map((line, i) => (
          <tspan
            key={i}
            x={node.x + node.width / 2}
            dy={i === 0 ? layout.lineHeight * 0.8 : layout.lineHeight}
          >
            {line}
          </tspan>
        ))}
      </text>
    </>
  );
}

function Edge({ edge, marker }: { edge: LaidOutEdge; marker: string }) {
  return (
    <g className="diagram-edge" data-weight={edge.weight ?? 1}>
      <path d={edgePath(edge.points)} strokeWidth={strokeWidth(edge.weight)} markerEnd={`url(#${marker})`} />
      {edge.weight && edge.labelAt ? (
        <g className="diagram-weight">
          <rect
            x={edge.labelAt[0] - (String(edge.weight).length * 7 + 8) / 2}
            y={edge.labelAt[1] - 8}
            width={String(edge.weight).length * 7 + 8}
            height={16}
            rx={4}
          />
          <text x={edge.labelAt[0]} y={edge.labelAt[1] + 4} fontSize={12}>
            {edge.weight}
          </text>
        </g>
      ) : null}
    </g>
  );
}

function Legend({ diagram, layout }: { diagram: DiagramPart; layout: DiagramLayout }) {
  const { verb, unit } = KIND_VERB[diagram.kind];
  const weighted = layout.edges.some((e) => e.weight);
  const entries: [string, string][] = [["arrow", `A → B: A ${verb} B`]];
  if (weighted)
    entries.push([
      "weight",
      `a number on an arrow: how many ${unit} it stands for; thicker arrows carry more`,
    ]);
  if (layout.nodes.some((n) => n.cycle)) entries.push(["cycle", "red outline: part of a cycle"]);
  if (layout.nodes.some((n) => n.shape === "more"))
    entries.push(["more", "dashed “+ N more”: nodes left out of the picture, grouped by folder"]);
  if (layout.nodes.some((n) => n.shape === "module"))
    entries.push(["module", "rounded: a folder outside the one this is about"]);
  return (
    <ul className="diagram-legend small" data-testid="diagram-legend" aria-label="Legend">
      {entries.map(([key, text]) => (
        <li key={key} data-legend={key}>
          <span className={`legend-swatch legend-${key}`} aria-hidden />
          {text}
        </li>
      ))}
    </ul>
  );
}

interface DiagramViewProps {
  diagram: DiagramPart;
  repositoryId: string;
  generationId: string | null;
}

export function DiagramView({ diagram, repositoryId, generationId }: DiagramViewProps) {
  const layout = diagram.layout;
  const linked = diagram.nodes.filter((n) => n.path);
  const hrefOf = new Map(
    linked.map((n) => [
      n.id,
      sourceHref({
        repositoryId,
        path: n.path ?? "",
        startLine: n.startLine,
        endLine: n.endLine,
        generationId,
      }),
    ]),
  );
  const labelOf = new Map(diagram.nodes.map((n) => [n.id, n.label]));
  const marker = `${idFor(diagram.mermaid)}-arrow`;
  return (
    <figure
      className="diagram"
      data-testid="diagram"
      data-status={layout ? "rendered" : "mermaid"}
      data-kind={diagram.kind}
    >
      <figcaption className="diagram-title">{diagram.title}</figcaption>
      {layout ? (
        <>
          <div
            className="diagram-canvas"
            data-testid="diagram-svg"
            // Wide diagrams scroll sideways: the region must be reachable from the keyboard.
            tabIndex={0}
            role="group"
            aria-label={`Diagram: ${diagram.title}`}
          >
            <svg
              width={layout.width}
              height={layout.height}
              viewBox={`0 0 ${layout.width} ${layout.height}`}
              xmlns="http://www.w3.org/2000/svg"
              role="group"
              aria-label={diagram.title}
            >
              <defs>
                <marker
                  id={marker}
                  viewBox="0 0 10 10"
                  refX="9"
                  refY="5"
                  markerWidth="9"
                  markerHeight="9"
                  markerUnits="userSpaceOnUse"
                  orient="auto-start-reverse"
                >
                  <path d="M0,0 L10,5 L0,10 z" className="diagram-arrowhead" />
                </marker>
              </defs>
              {layout.groups.map((g) => (
                <g key={g.id} className="diagram-group" data-testid="diagram-group">
                  <rect x={g.x} y={g.y} width={g.width} height={g.height} rx={8} />
                  <text x={g.x + 12} y={g.y + 8} fontSize={layout.fontSize}>
                    {g.lines.map((line, i) => (
                      <tspan key={i} x={g.x + 12} dy={layout.lineHeight * (i === 0 ? 0.9 : 1)}>
                        {line}
                      </tspan>
                    ))}
                  </text>
                </g>
              ))}
              {layout.edges.map((edge, i) => (
                <Edge key={i} edge={edge} marker={marker} />
              ))}
              {layout.nodes.map((node) => {
                const href = hrefOf.get(node.id);
                const shape = <NodeShape node={node} layout={layout} />;
                return href ? (
                  <Link
                    prefetch={false}
                    key={node.id}
                    href={href}
                    className="diagram-node diagram-link"
                    data-testid="diagram-node-link"
                    data-node={node.id}
                    data-href={href}
                    aria-label={`${labelOf.get(node.id) ?? node.lines.join("")}: open the source`}
                  >
                    {shape}
                  </Link>
                ) : (
                  <g key={node.id} className="diagram-node" data-node={node.id}>
                    {shape}
                  </g>
                );
              })}
            </svg>
          </div>
          <Legend diagram={diagram} layout={layout} />
        </>
      ) : (
        <MermaidDiagram source={diagram.mermaid} label={`Diagram: ${diagram.title}`} />
      )}
      {linked.length > 0 ? (
        <details className="diagram-nodes small">
          <summary>Nodes as a list ({linked.length})</summary>
          <ul className="plain-list">
            {linked.map((node) => (
              <li key={node.id}>
                <Link prefetch={false} href={hrefOf.get(node.id) ?? "#"}>
                  {node.label}
                </Link>{" "}
                <span className="muted">
                  {node.path}
                  {node.startLine ? `:${node.startLine}` : ""}
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </figure>
  );
}
