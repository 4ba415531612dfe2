"use client";
/**
 * Lines over time for one or more series (rates, tokens). A null value breaks the
 * line: "no questions in that hour" is not the same as zero.
 */
import type { ReactNode } from "react";
import { ChartFrame } from "./chart-frame";
import { labelEvery, niceMax, ticks } from "./scale";

export interface LineSeries {
  key: string;
  label: string;
  color: string;
  dashed?: boolean;
  values: (number | null)[];
}

interface Props {
  title: string;
  summary: string;
  testId: string;
  labels: string[];
  series: LineSeries[];
  format: (v: number) => string;
  /** fixed top of the axis (1 for rates); otherwise rounded up from the data */
  max?: number;
  actions?: ReactNode;
}

const HEIGHT = 170;
// Side padding leaves room for a centred date label on the first and last point.
const PAD = { top: 10, right: 26, bottom: 24, left: 44 };

/** Runs of consecutive non-null points, each drawn as its own path. */
export function segments(values: (number | null)[]): { i: number; v: number }[][] {
  const out: { i: number; v: number }[][] = [];
  let current: { i: number; v: number }[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (current.length) out.push(current);
      current = [];
    } else current.push({ i, v });
  });
  if (current.length) out.push(current);
  return out;
}

export function LineChart(props: Props) {
  return (
    <ChartFrame
      {...props}
      legend={props.series.length > 1 ? props.series : undefined}
      table={{
        columns: ["Period", ...props.series.map((s) => s.label)],
        rows: props.labels.map((l, i) => [
          l,
          ...props.series.map((s) => {
            const v = s.values[i];
            return v === null || v === undefined ? "—" : props.format(v);
          }),
        ]),
      }}
    >
      {(width) => <Lines {...props} width={width} />}
    </ChartFrame>
  );
}

function Lines({ width, ...props }: Props & { width: number }) {
  const all = props.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = props.max ?? niceMax(Math.max(0, ...all));
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const n = props.labels.length;
  const x = (i: number) => PAD.left + (n <= 1 ? plotW / 2 : (i / (n - 1)) * plotW);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const every = labelEvery(n, Math.floor(plotW / 56));
  return (
    <svg width={width} height={HEIGHT} role="img" aria-label={`${props.title}: ${props.summary}`}>
      {ticks(max).map((t) => (
        <g key={t}>
          <line className="grid" x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} />
          <text className="axis" x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
            {props.format(t)}
          </text>
        </g>
      ))}
      {props.labels.map((l, i) =>
        i % every === 0 ? (
          <text key={i} className="axis" x={x(i)} y={HEIGHT - 6} textAnchor="middle">
            {l}
          </text>
        ) : null,
      )}
      {props.series.map((s) =>
        segments(s.values).map((run, k) => (
          <g key={`${s.key}-${k}`}>
            {run.length > 1 ? (
              <polyline
                fill="none"
                stroke={s.color}
                strokeWidth={2}
                strokeDasharray={s.dashed ? "5 4" : undefined}
                points={run.map((p) => `${x(p.i)},${y(p.v)}`).join(" ")}
              />
            ) : null}
            {run.map((p) => (
              <circle key={p.i} cx={x(p.i)} cy={y(p.v)} r={run.length > 1 ? 2.5 : 3.5} fill={s.color}>
                <title>{`${props.labels[p.i]} · ${s.label}: ${props.format(p.v)}`}</title>
              </circle>
            ))}
          </g>
        )),
      )}
    </svg>
  );
}
