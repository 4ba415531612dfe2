/**
 * Pure selectors over a streamed (or stored) WayfinderUIMessage: the pieces each
 * panel renders. Kept apart from the components so the same reading of the stream
 * contract serves the live chat and the read-only share page, and is unit-tested.
 */
import type {
  CitationPart,
  ClassificationPart,
  DiagramPart,
  GapReport,
  NoticePart,
  PassPart,
  WayfinderDataParts,
  WayfinderUIMessage,
} from "@/lib/qa/types";
import { answeredPasses } from "@/lib/qa/passes";

type Part = WayfinderUIMessage["parts"][number];

function dataOf<K extends keyof WayfinderDataParts>(parts: Part[], kind: K): WayfinderDataParts[K][] {
  const out: WayfinderDataParts[K][] = [];
  for (const part of parts) {
    if (part.type === `data-${kind}`) out.push((part as unknown as { data: WayfinderDataParts[K] }).data);
  }
  return out;
}

export function classificationOf(message: WayfinderUIMessage): ClassificationPart | null {
  return dataOf(message.parts, "classification").at(-1) ?? null;
}

/** One entry per pass number (parts with the same id are replaced in place; later wins anyway). */
export function passesOf(message: WayfinderUIMessage): PassPart[] {
  const byNumber = new Map<number, PassPart>();
  for (const pass of dataOf(message.parts, "pass")) byNumber.set(pass.pass, pass);
  return [...byNumber.values()].sort((a, b) => a.pass - b.pass);
}

/** How many passes answered: the one count the header, footer and metadata share (lib/qa/passes.ts). */
export function answeredPassesOf(message: WayfinderUIMessage): number {
  return message.metadata?.passesUsed ?? answeredPasses(passesOf(message));
}

export function citationsOf(message: WayfinderUIMessage): CitationPart[] {
  return dataOf(message.parts, "citations").at(-1)?.items ?? [];
}

export function diagramsOf(message: WayfinderUIMessage): DiagramPart[] {
  return dataOf(message.parts, "diagram");
}

export function noticesOf(message: WayfinderUIMessage): NoticePart[] {
  const seen = new Set<string>();
  return dataOf(message.parts, "notice").filter((n) => {
    const key = `${n.code}\n${n.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function textsOf(message: WayfinderUIMessage): string[] {
  return message.parts.filter((p) => p.type === "text").map((p) => p.text);
}

/**
 * The answer is the last text part (each pass drafts into its own part). A pass's
 * part starts empty, so until it has text the previous draft stays on screen.
 */
export function answerOf(message: WayfinderUIMessage): string {
  return (
    textsOf(message)
      .filter((t) => t.trim())
      .at(-1) ?? ""
  );
}

/** Earlier passes' drafts, oldest first (shown collapsed under the answer). */
export function draftsOf(message: WayfinderUIMessage): string[] {
  return textsOf(message)
    .filter((t) => t.trim())
    .slice(0, -1);
}

export function questionOf(message: WayfinderUIMessage): string {
  return textsOf(message).join("\n");
}

export interface GapEntry extends GapReport {
  pass: number;
}

export interface GapSummary {
  resolved: GapEntry[];
  unresolved: GapEntry[];
  skipped: GapEntry[];
  /** named by the last pass and never looked up (the loop stopped first) */
  open: string[];
}

/**
 * Every gap with its latest outcome. A gap retried in a later pass keeps only its
 * latest report, so a gap resolved on the second try is not also listed as unresolved.
 */
export function gapsOf(message: WayfinderUIMessage): GapSummary {
  const latest = new Map<string, GapEntry>();
  const passes = passesOf(message);
  for (const pass of passes) {
    for (const gap of pass.gaps) latest.set(gap.gap, { ...gap, pass: pass.pass });
  }
  const entries = [...latest.values()];
  const last = passes.at(-1);
  return {
    resolved: entries.filter((g) => g.status === "resolved"),
    unresolved: entries.filter((g) => g.status === "unresolved"),
    skipped: entries.filter((g) => g.status === "skipped"),
    open: last?.phase === "done" ? last.gapsIdentified.filter((g) => !latest.has(g)) : [],
  };
}

/** The pass currently running while streaming, if any. */
export function activePassOf(message: WayfinderUIMessage): PassPart | null {
  return passesOf(message).find((p) => p.phase !== "done") ?? null;
}

export interface CitationLocation {
  path: string;
  startLine: number;
  endLine: number;
}

/** `path:10-20` / `path:10` / `path#L10-L20` occurrences in a piece of text. */
export const CITATION_PATTERN = /([\w@$~+./-]*[\w-]\.[A-Za-z][A-Za-z0-9]*)(?::|#L)(\d+)(?:-L?(\d+))?/g;

export function parseCitation(raw: string): CitationLocation | null {
  const match = new RegExp(`^${CITATION_PATTERN.source}$`).exec(raw.trim());
  if (!match?.[1] || !match[2]) return null;
  const startLine = Number(match[2]);
  const endLine = match[3] ? Number(match[3]) : startLine;
  return { path: match[1], startLine, endLine };
}

/** Finds the streamed citation a piece of answer text refers to. */
export function matchCitation(citations: CitationPart[], location: CitationLocation, raw: string) {
  return (
    citations.find((c) => c.raw === raw) ??
    citations.find(
      (c) => c.path === location.path && c.startLine === location.startLine && c.endLine === location.endLine,
    ) ??
    // A citation merged into another that overlaps it (one entry per stretch of a file).
    citations.find((c) =>
      c.alsoCites?.includes(`${location.path}:${location.startLine}-${location.endLine}`),
    ) ??
    null
  );
}
