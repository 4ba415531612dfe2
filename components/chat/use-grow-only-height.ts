"use client";
/**
 * Keeps an element from shrinking while `active`: when a later pass's draft replaces
 * a longer earlier one mid-stream, the panels below it stay where they are. The
 * floor is released once streaming ends.
 */
import { useLayoutEffect, useRef, type RefObject } from "react";

export function useGrowOnlyHeight<T extends HTMLElement>(ref: RefObject<T | null>, active: boolean): void {
  const tallest = useRef(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (!active) {
      tallest.current = 0;
      element.style.minHeight = "";
      return;
    }
    const height = element.offsetHeight;
    if (height > tallest.current) {
      tallest.current = height;
      element.style.minHeight = `${height}px`;
    }
  });
}
