/**
 * mermaid in the browser, for diagrams Wayfinder does not lay out itself (fenced
 * ```mermaid blocks in Markdown, and diagram sources the server's reader refuses).
 * The package's prebuilt build is imported from its own route (mermaid-bundle.ts) when
 * the first such diagram appears, never bundled with the page; it inherits the page
 * script's nonce, so the CSP is unchanged. One render at a time (mermaid keeps global
 * state while it draws), and each source is drawn once per page: a diagram shown again
 * (an earlier draft, a remount) comes from the cache at once.
 */
import type { Mermaid } from "mermaid";
import { MERMAID_BUNDLE_URL } from "./mermaid-bundle";
import { mermaidSettings, naturalSize } from "./mermaid-settings";

/**
 * A drawn diagram (its SVG and the id mermaid drew it with), or why it could not be
 * drawn; `transient` when mermaid itself could not be loaded, so a later try may work.
 */
export type Drawing = { svg: string; id: string } | { error: string; transient: boolean };

/** mermaid's messages can list dozens of expected tokens; the start says what is wrong. */
const MAX_ERROR_CHARS = 800;

let loading: Promise<Mermaid> | null = null;
let queue: Promise<unknown> = Promise.resolve();
let drawn = 0;
const settled = new Map<string, Drawing>();
const pending = new Map<string, Promise<Drawing>>();

function loadMermaid(): Promise<Mermaid> {
  loading ??= (import(/* webpackIgnore: true */ MERMAID_BUNDLE_URL) as Promise<{ default: Mermaid }>).then(
    ({ default: mermaid }) => {
      mermaid.initialize(
        mermaidSettings(getComputedStyle(document.body).fontFamily, mermaid.mermaidAPI.defaultConfig),
      );
      return mermaid;
    },
    (error: unknown) => {
      // A failed download (offline for a moment) may succeed on the next diagram.
      loading = null;
      throw error;
    },
  );
  return loading;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

async function draw(source: string): Promise<Drawing> {
  let mermaid: Mermaid;
  try {
    mermaid = await loadMermaid();
  } catch (error) {
    return { error: `mermaid could not be loaded: ${messageOf(error)}`, transient: true };
  }
  const id = `wf-mermaid-${++drawn}`;
  try {
    const { svg } = await mermaid.render(id, source);
    return { svg: naturalSize(svg), id };
  } catch (error) {
    return { error: messageOf(error), transient: false };
  } finally {
    // After a failure mermaid can leave its scratch element in <body>.
    document.getElementById(`d${id}`)?.remove();
  }
}

/** The drawing of a source already drawn on this page, if any. */
export function drawnBefore(source: string): Drawing | undefined {
  return settled.get(source);
}

/** Draws a source once per page; later calls for the same source share the result. */
export function drawMermaid(source: string): Promise<Drawing> {
  const known = settled.get(source);
  if (known) return Promise.resolve(known);
  const inFlight = pending.get(source);
  if (inFlight) return inFlight;
  const result = queue.then(() => draw(source));
  queue = result;
  pending.set(source, result);
  void result.then((drawing) => {
    pending.delete(source);
    // Drawn again next time only when mermaid could not be loaded; a syntax error stays.
    if (!("transient" in drawing && drawing.transient)) settled.set(source, drawing);
  });
  return result;
}

/**
 * The SVG for one place on the page: the ids mermaid wrote (the SVG's own, its
 * markers, the selectors of its style) made unique to that place, so the same diagram
 * shown twice has no duplicate ids.
 */
export function placedSvg(drawing: { svg: string; id: string }, place: string): string {
  return drawing.svg.replaceAll(drawing.id, `${drawing.id}-${place}`);
}
