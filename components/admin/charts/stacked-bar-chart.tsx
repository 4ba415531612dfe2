"use client";
/**
 * Stacked bars over time (questions per mode per hour/day): one bar per bucket, one
 * segment per series, each segment titled with its exact count.
 */
import { ChartFrame, type ChartTable } from "./chart-frame";
import { labelEvery, niceMax, ticks } from "./scale";

export interface Series {
  key: string;
  label: string;
  color: string;
}

interface Props {
  title: string;
  summary: string;
  testId: string;
  series: Series[];
  buckets: { label: string; values: Record<string, number> }[];
}

const HEIGHT = 190;
const PAD = { top: 10, right: 8, bottom: 24, left: 34 };

function totalOf(series: Series[], values: Record<string, number>): number {
  return series.reduce((n, s) => n + (values[s.key] ?? 0), 0);
}

export function StackedBarChart(props: Props) {
  const table: ChartTable = {
    columns: ["Period", ...props.series.map((s) => s.label), "Total"],
    rows: props.buckets.map((b) => [
      b.label,
      ...props.series.map((s) => b.values[s.key] ?? 0),
      totalOf(props.series, b.values),
    ]),
  };
  return (
    <ChartFrame {...props} table={table} legend={props.series}>
      {(width) => <Bars {...props} width={width} />}
    </ChartFrame>
  );
}

function Bars({ width, ...props }: Props & { width: number }) {
  const max = niceMax(Math.max(0, ...props.buckets.map((b) => totalOf(props.series, b.values))));
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, props.buckets.length);
  const barW = Math.max(2, Math.min(28, slot * 0.7));
  const every = labelEvery(props.buckets.length, Math.floor(plotW / 52));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  return (
    <svg width={width} height={HEIGHT} role="img" aria-label={`${props.title}: ${props.summary}`}>
      {ticks(max).map((t) => (
        <g key={t}>
          <line className="grid" x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} />
          <text className="axis" x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
            {t}
          </text>
        </g>
      ))}
      {props.buckets.map((b, i) => {
        const x = PAD.left + slot * i + (slot - barW) / 2;
        let acc = 0;
        return (
          <g key={i}>
            {props.series.map((s) => {
              const v = b.values[s.key] ?? 0;
              if (!v) return null;
              const top = y(acc + v);
              const h = y(acc) - top;
              acc += v;
              return (
                <rect key={s.key} x={x} y={top} width={barW} height={Math.max(1, h)} fill={s.color}>
                  <title>{`${b.label} · ${s.label}: ${v}`}</title>
                </rect>
              );
            })}
            {i % every === 0 ? (
              <text className="axis" x={x + barW / 2} y={HEIGHT - 6} textAnchor="middle">
                {b.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
