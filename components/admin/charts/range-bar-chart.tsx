"use client";
/**
 * Horizontal paired bars per category (latency p50 and p95 per mode): the median as
 * a solid bar, the 95th percentile as a lighter bar behind it, values written out.
 */
import { ChartFrame } from "./chart-frame";
import { niceMax } from "./scale";

interface Props {
  title: string;
  summary: string;
  testId: string;
  rows: { label: string; color: string; low: number | null; high: number | null; count: number }[];
  lowLabel: string;
  highLabel: string;
  format: (v: number | null) => string;
}

const ROW = 34;
const PAD = { top: 6, right: 8, bottom: 6, left: 92 };

export function RangeBarChart(props: Props) {
  return (
    <ChartFrame
      {...props}
      legend={[
        { label: `${props.lowLabel} (solid bar)`, color: "#60656f" },
        { label: `${props.highLabel} (light bar)`, color: "#c9ccd2" },
      ]}
      table={{
        columns: ["Mode", "Questions", props.lowLabel, props.highLabel],
        rows: props.rows.map((r) => [r.label, r.count, props.format(r.low), props.format(r.high)]),
      }}
    >
      {(width) => <Ranges {...props} width={width} />}
    </ChartFrame>
  );
}

function Ranges({ width, ...props }: Props & { width: number }) {
  const max = niceMax(Math.max(0, ...props.rows.map((r) => r.high ?? 0)));
  const height = PAD.top + PAD.bottom + ROW * props.rows.length;
  // Room on the right for the "p50 · p95" text so it never overlaps the bars.
  const textRoom = Math.min(150, width * 0.4);
  const plotW = width - PAD.left - PAD.right - textRoom;
  const w = (v: number | null) => (v === null ? 0 : Math.max(2, (v / max) * plotW));
  return (
    <svg width={width} height={height} role="img" aria-label={`${props.title}: ${props.summary}`}>
      {props.rows.map((r, i) => {
        const top = PAD.top + i * ROW;
        return (
          <g key={r.label} data-testid="latency-row" data-mode={r.label}>
            <text className="axis label" x={PAD.left - 8} y={top + ROW / 2 + 4} textAnchor="end">
              {r.label}
            </text>
            <rect x={PAD.left} y={top + 7} width={w(r.high)} height={ROW - 14} fill={r.color} opacity={0.3}>
              <title>{`${r.label} ${props.highLabel}: ${props.format(r.high)}`}</title>
            </rect>
            <rect x={PAD.left} y={top + 11} width={w(r.low)} height={ROW - 22} fill={r.color}>
              <title>{`${r.label} ${props.lowLabel}: ${props.format(r.low)}`}</title>
            </rect>
            <text className="value" x={PAD.left + w(r.high) + 6} y={top + ROW / 2 + 4}>
              {r.count ? `${props.format(r.low)} · ${props.format(r.high)}` : "no questions"}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
