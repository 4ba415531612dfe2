"use client";
/**
 * Brings the cited range into view when the source view opens: the browser's own
 * `#L10` jump lands the line under the sticky header, so we centre the range instead.
 */
import { useEffect } from "react";

export function ScrollToLine({ line }: { line: number }) {
  useEffect(() => {
    const element = document.getElementById(`L${line}`);
    element?.scrollIntoView({ block: "center" });
  }, [line]);
  return null;
}
