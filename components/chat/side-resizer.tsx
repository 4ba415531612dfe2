"use client";
/**
 * The handle between an answer and its side column (timeline, gaps, citations):
 * drag it, or focus it and use the arrow keys, to give citations room for long code
 * lines. One width for every answer on the page, kept in the browser for next time.
 * The width lives in a CSS variable on the document, so all answers follow one drag.
 */
import {
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type PointerEvent,
} from "react";

const STORAGE_KEY = "wayfinder.sideWidth";
export const DEFAULT_SIDE_WIDTH = 420;
const MIN_SIDE_WIDTH = 300;
/** The answer keeps at least this much room. */
const MIN_MAIN_WIDTH = 380;
const STEP = 40;

let current = DEFAULT_SIDE_WIDTH;
const listeners = new Set<() => void>();

function setSideWidth(width: number): void {
  current = Math.round(width);
  document.documentElement.style.setProperty("--side-width", `${current}px`);
  listeners.forEach((notify) => notify());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function maxFor(row: HTMLElement | null): number {
  return Math.max(MIN_SIDE_WIDTH, (row?.clientWidth ?? 1200) - MIN_MAIN_WIDTH);
}

export function SideResizer() {
  const ref = useRef<HTMLDivElement>(null);
  const width = useSyncExternalStore(
    subscribe,
    () => current,
    () => DEFAULT_SIDE_WIDTH,
  );
  const [max, setMax] = useState(DEFAULT_SIDE_WIDTH * 2);
  const row = () => ref.current?.parentElement ?? null;
  const clamp = (w: number) => Math.min(maxFor(row()), Math.max(MIN_SIDE_WIDTH, w));

  // The saved width once, and the largest width the row allows whenever it resizes.
  useEffect(() => {
    const parent = ref.current?.parentElement ?? null;
    const saved = Number(window.localStorage.getItem(STORAGE_KEY));
    if (saved && saved !== current) setSideWidth(Math.min(maxFor(parent), Math.max(MIN_SIDE_WIDTH, saved)));
    if (!parent) return;
    const observer = new ResizeObserver(() => setMax(maxFor(parent)));
    observer.observe(parent);
    return () => observer.disconnect();
  }, []);

  const commit = (w: number) => {
    setSideWidth(clamp(w));
    window.localStorage.setItem(STORAGE_KEY, String(current));
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
    const right = row()?.getBoundingClientRect().right ?? window.innerWidth;
    commit(right - event.clientX - 8);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next =
      event.key === "ArrowLeft"
        ? width + STEP
        : event.key === "ArrowRight"
          ? width - STEP
          : event.key === "Home"
            ? maxFor(row())
            : event.key === "End"
              ? MIN_SIDE_WIDTH
              : null;
    if (next === null) return;
    event.preventDefault();
    commit(next);
  };

  return (
    <div
      ref={ref}
      className="side-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Width of the side panel (citations, gaps, timeline)"
      aria-valuemin={MIN_SIDE_WIDTH}
      aria-valuemax={max}
      aria-valuenow={width}
      tabIndex={0}
      title="Drag, or focus and use ← →, to widen the citations"
      data-testid="side-resizer"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onKeyDown={onKeyDown}
      onDoubleClick={() => commit(width > DEFAULT_SIDE_WIDTH ? DEFAULT_SIDE_WIDTH : maxFor(row()))}
    />
  );
}
