"use client";
/**
 * A diagram drawn by mermaid in the browser (mermaid-render.ts): a fenced ```mermaid
 * block of an answer or a wiki page, or a diagram source the server's reader refuses.
 * Drawn at 1:1 in a canvas that scrolls sideways, like the server's diagrams. While
 * mermaid loads it says so; a source mermaid cannot read shows mermaid's message and
 * the source, never a blank box.
 */
import { useEffect, useId, useState } from "react";
import { drawMermaid, drawnBefore, placedSvg, type Drawing } from "./mermaid-render";

interface MermaidDiagramProps {
  source: string;
  /** what the drawing is called for screen readers */
  label: string;
}

export function MermaidDiagram({ source, label }: MermaidDiagramProps) {
  const place = useId().replace(/[^A-Za-z0-9_-]/g, "");
  const [result, setResult] = useState<{ source: string; drawing: Drawing } | null>(null);
  // A source drawn before on this page shows at once (a remount, an earlier draft).
  const drawing = result?.source === source ? result.drawing : (drawnBefore(source) ?? null);

  useEffect(() => {
    let current = true;
    void drawMermaid(source).then((drawn) => {
      if (current) setResult({ source, drawing: drawn });
    });
    return () => {
      current = false;
    };
  }, [source]);

  if (drawing && "svg" in drawing) {
    return (
      <div
        className="diagram-canvas mermaid-canvas"
        data-testid="mermaid-diagram"
        data-status="rendered"
        // Wide diagrams scroll sideways: the region must be reachable from the keyboard.
        tabIndex={0}
        role="group"
        aria-label={label}
        dangerouslySetInnerHTML={{ __html: placedSvg(drawing, place) }}
      />
    );
  }
  if (drawing) {
    return (
      <div className="diagram-failed" data-testid="mermaid-diagram" data-status="failed">
        <p className="small">The diagram could not be drawn:</p>
        <pre className="diagram-error" data-testid="mermaid-error">
          {drawing.error}
        </pre>
        <p className="small">Its source:</p>
        <pre className="diagram-source" data-testid="diagram-source">
          {source}
        </pre>
      </div>
    );
  }
  return (
    <div className="mermaid-pending small muted" data-testid="mermaid-diagram" data-status="drawing">
      <span className="spinner" aria-hidden /> Drawing the diagram…
    </div>
  );
}
