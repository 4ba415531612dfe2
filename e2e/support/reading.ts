/**
 * Measurable facts about how text reads on screen, for assertions beside the
 * screenshots: where a browser broke a name across lines (never between two letters of
 * a word), and how large a diagram's labels are drawn.
 */
import type { Locator } from "@playwright/test";

/**
 * Line breaks inside the text of the matched elements that fall between two letters or
 * digits (a mid-word break), as "before|after" snippets; empty when every break is at a
 * separator or a space.
 */
export async function midWordBreaks(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((elements) => {
    const found: string[] = [];
    for (const element of elements) {
      const chars: { ch: string; top: number }[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect && rect.width > 0) chars.push({ ch: text[i] ?? "", top: rect.top });
        }
      }
      for (let i = 1; i < chars.length; i++) {
        const before = chars[i - 1]!;
        const after = chars[i]!;
        const newLine = after.top > before.top + 4;
        if (newLine && /[A-Za-z0-9]/.test(before.ch) && /[A-Za-z0-9]/.test(after.ch)) {
          const context = chars
            .slice(Math.max(0, i - 12), i + 12)
            .map((c) => c.ch)
            .join("");
          found.push(`${context.slice(0, Math.min(12, i))}|${context.slice(Math.min(12, i))}`);
        }
      }
    }
    return found;
  });
}

export interface DiagramFacts {
  /** label font size as drawn on screen, in CSS pixels (font size × the SVG's scale) */
  labelPx: number;
  nodes: number;
  /** each node's label, one entry per drawn line */
  labels: string[][];
  /** weights written on arrows */
  weights: number[];
  /** the drawing's width on screen and the width of the box it sits in */
  drawnWidth: number;
  boxWidth: number;
}

export async function diagramFacts(figure: Locator): Promise<DiagramFacts> {
  return figure.evaluate((fig) => {
    const svg = fig.querySelector("svg") as SVGSVGElement;
    const scale = svg.getScreenCTM()?.a ?? 1;
    const texts = [...svg.querySelectorAll<SVGTextElement>(".diagram-node-text")];
    const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    const canvas = fig.querySelector('[data-testid="diagram-svg"]') as HTMLElement;
    return {
      labelPx: Math.min(...sizes),
      nodes: svg.querySelectorAll(".diagram-node").length,
      labels: texts.map((t) => [...t.querySelectorAll("tspan")].map((s) => s.textContent ?? "")),
      weights: [...svg.querySelectorAll(".diagram-weight text")].map((t) => Number(t.textContent)),
      drawnWidth: svg.getBoundingClientRect().width,
      boxWidth: canvas.clientWidth,
    };
  });
}

/** A label wrapped mid-word: a line ending in a letter or digit followed by one starting with one. */
export function brokenLabels(labels: string[][]): string[][] {
  return labels.filter((lines) =>
    lines
      .slice(0, -1)
      .some((line, i) => /[A-Za-z0-9]$/.test(line) && /^[A-Za-z0-9]/.test(lines[i + 1] ?? "")),
  );
}

export interface MermaidFacts {
  /** the smallest text mermaid drew, in CSS pixels on screen (font size × the SVG's scale) */
  minTextPx: number;
  /** every piece of text drawn */
  texts: string[];
  /** the SVG's id: mermaid's drawing id, made unique to the place it is shown */
  svgId: string;
}

/** Facts about a diagram mermaid drew (`data-testid="mermaid-diagram"`). */
export async function mermaidFacts(drawing: Locator): Promise<MermaidFacts> {
  return drawing.evaluate((root) => {
    const svg = root.querySelector("svg") as SVGSVGElement;
    const sizes: number[] = [];
    const texts: string[] = [];
    for (const element of svg.querySelectorAll("*")) {
      const own = [...element.childNodes].filter(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
      );
      if (!own.length || element.closest("style") || !element.getBoundingClientRect().width) continue;
      // SVG text scales with its element's transform; HTML labels with their foreignObject's.
      const drawn = element instanceof SVGGraphicsElement ? element : element.closest("foreignObject");
      const matrix = (drawn as SVGGraphicsElement | null)?.getScreenCTM();
      const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 1;
      sizes.push(parseFloat(getComputedStyle(element).fontSize) * scale);
      texts.push(own.map((n) => n.textContent?.trim()).join(" "));
    }
    return { minTextPx: Math.min(...sizes), texts, svgId: svg.id };
  });
}
