"use client";
/**
 * Renders a `data-diagram` part with mermaid, loaded on demand from its prebuilt
 * bundle (mermaid-bundle.ts: it is large and browser-only). After rendering, each node
 * that has a source location becomes a keyboard-focusable link into the source view;
 * we wire the links ourselves instead of mermaid `click` directives so mermaid can
 * keep its strict security level. A diagram that fails to parse or render shows its
 * source text, never a blank box.
 */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { sourceHref } from "@/components/source/source-href";
import { MERMAID_BUNDLE_URL } from "./mermaid-bundle";
import type { DiagramNode, DiagramPart } from "@/lib/qa/types";

type RenderState =
  | { status: "rendering" }
  | { status: "rendered"; svg: string }
  | { status: "failed"; error: string };

// mermaid keeps global state while rendering; one render at a time across the page.
let renderQueue: Promise<unknown> = Promise.resolve();

async function renderMermaid(id: string, source: string): Promise<string> {
  const run = async () => {
    const { default: mermaid } = (await import(/* webpackIgnore: true */ MERMAID_BUNDLE_URL)) as {
      default: typeof import("mermaid").default;
    };
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      theme: "neutral",
      fontFamily: "system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
      flowchart: { useMaxWidth: true },
    });
    try {
      await mermaid.parse(source);
      const { svg } = await mermaid.render(id, source);
      return svg;
    } finally {
      // On failure mermaid can leave its scratch element in <body>.
      document.getElementById(`d${id}`)?.remove();
    }
  };
  const result = renderQueue.then(run, run);
  renderQueue = result.catch(() => undefined);
  return result;
}

/**
 * The SVG group of a diagram node. Flowchart nodes are `g.node` with an id like
 * `<svg id>-flowchart-<node id>-<n>` (older mermaid: `flowchart-<node id>-<n>`, or a
 * `data-id`), so match on the id's shape rather than one exact form.
 */
function nodeElement(container: HTMLElement, node: DiagramNode): Element | null {
  const byData = container.querySelector(`g.node[data-id="${CSS.escape(node.id)}"]`);
  if (byData) return byData;
  const escaped = node.id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(^|-)flowchart-${escaped}-\\d+$`);
  return [...container.querySelectorAll("g.node")].find((g) => pattern.test(g.id)) ?? null;
}

interface MermaidDiagramProps {
  diagram: DiagramPart;
  repositoryId: string;
  generationId: string | null;
}

export function MermaidDiagram({ diagram, repositoryId, generationId }: MermaidDiagramProps) {
  const router = useRouter();
  const id = `mmd-${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const containerRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<RenderState>({ status: "rendering" });
  const linked = diagram.nodes.filter((n) => n.path);

  useEffect(() => {
    let cancelled = false;
    renderMermaid(id, diagram.mermaid).then(
      (svg) => !cancelled && setState({ status: "rendered", svg }),
      (error: unknown) =>
        !cancelled &&
        setState({ status: "failed", error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [id, diagram.mermaid]);

  // Post-render link wiring: nodes with a location open the source view.
  useEffect(() => {
    const container = containerRef.current;
    if (state.status !== "rendered" || !container) return;
    const cleanups: (() => void)[] = [];
    for (const node of diagram.nodes) {
      if (!node.path) continue;
      const element = nodeElement(container, node);
      if (!element) continue;
      const href = sourceHref({
        repositoryId,
        path: node.path,
        startLine: node.startLine,
        endLine: node.endLine,
        generationId,
      });
      const open = () => router.push(href);
      const onKey = (event: Event) => {
        const key = (event as KeyboardEvent).key;
        if (key === "Enter" || key === " ") {
          event.preventDefault();
          open();
        }
      };
      element.setAttribute("role", "link");
      element.setAttribute("tabindex", "0");
      element.setAttribute("aria-label", `${node.label}: open ${node.path}`);
      element.setAttribute("data-testid", "diagram-node-link");
      element.setAttribute("data-href", href);
      element.classList.add("diagram-link");
      element.addEventListener("click", open);
      element.addEventListener("keydown", onKey);
      cleanups.push(() => {
        element.removeEventListener("click", open);
        element.removeEventListener("keydown", onKey);
      });
    }
    return () => cleanups.forEach((cleanup) => cleanup());
  }, [state, diagram.nodes, repositoryId, generationId, router]);

  return (
    <figure className="diagram" data-testid="diagram" data-status={state.status} data-kind={diagram.kind}>
      <figcaption className="diagram-title">{diagram.title}</figcaption>
      {state.status === "rendered" ? (
        <div
          ref={containerRef}
          className="diagram-canvas"
          data-testid="diagram-svg"
          dangerouslySetInnerHTML={{ __html: state.svg }}
        />
      ) : state.status === "rendering" ? (
        <div className="diagram-canvas diagram-placeholder" aria-busy="true">
          <span className="muted small">Rendering diagram…</span>
        </div>
      ) : (
        <div className="diagram-failed" data-testid="diagram-fallback">
          <p className="small">The diagram could not be drawn ({state.error.split("\n")[0]}). Its source:</p>
          <pre className="diagram-source" data-testid="diagram-source">
            {diagram.mermaid}
          </pre>
        </div>
      )}
      {linked.length > 0 ? (
        <details className="diagram-nodes small">
          <summary>Nodes ({linked.length})</summary>
          <ul className="plain-list">
            {linked.map((node) => (
              <li key={node.id}>
                <Link
                  href={sourceHref({
                    repositoryId,
                    path: node.path ?? "",
                    startLine: node.startLine,
                    endLine: node.endLine,
                    generationId,
                  })}
                >
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
