/** Axis helpers shared by the charts: a round upper bound, its ticks, and label formats. */

/** The smallest 1/2/5 × 10ⁿ at or above `value` (1 for empty data, so bars have a scale). */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

export function ticks(max: number, count = 2): number[] {
  return Array.from({ length: count + 1 }, (_, i) => (max * i) / count);
}

/** Every n-th label so that about `room` of them fit. */
export function labelEvery(total: number, room: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, room)));
}

const TIME_FORMATS = {
  hour: new Intl.DateTimeFormat("en-US", {
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
    timeZone: "UTC",
  }),
  day: new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }),
  week: new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }),
};

export function formatBucket(iso: string, bucket: "hour" | "day" | "week"): string {
  const text = TIME_FORMATS[bucket].format(new Date(iso));
  return bucket === "week" ? `wk ${text}` : text;
}

export function formatPercent(value: number | null): string {
  return value === null ? "—" : `${Math.round(value * 1000) / 10}%`;
}

export function formatCompact(value: number): string {
  if (Math.abs(value) >= 10_000) return `${Math.round(value / 1000)}k`;
  if (Math.abs(value) >= 1000) return `${(value / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  return String(Math.round(value * 100) / 100);
}

export function formatLatency(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export const MODE_COLORS: Record<string, string> = {
  conceptual: "#2f5bd3",
  diagnostic: "#c2410c",
  exploratory: "#15803d",
  analytical: "#7e22ce",
};
