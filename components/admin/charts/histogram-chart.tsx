"use client";
/** Vertical bars over a small discrete axis (the passes histogram), each with its count on top. */
import { ChartFrame } from "./chart-frame";
import { niceMax } from "./scale";

interface Props {
  title: string;
  summary: string;
  testId: string;
  color: string;
  /** column header of the bins in the data table */
  binLabel: string;
  bins: { label: string; count: number }[];
}

const HEIGHT = 170;
const PAD = { top: 18, right: 8, bottom: 24, left: 8 };

export function HistogramChart(props: Props) {
  return (
    <ChartFrame
      {...props}
      table={{ columns: [props.binLabel, "Questions"], rows: props.bins.map((b) => [b.label, b.count]) }}
    >
      {(width) => <Bins {...props} width={width} />}
    </ChartFrame>
  );
}

function Bins({ width, ...props }: Props & { width: number }) {
  const max = niceMax(Math.max(0, ...props.bins.map((b) => b.count)));
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, props.bins.length);
  const barW = Math.min(64, slot * 0.7);
  return (
    <svg width={width} height={HEIGHT} role="img" aria-label={`${props.title}: ${props.summary}`}>
      <line className="grid" x1={PAD.left} x2={width - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} />
      {props.bins.map((b, i) => {
        const h = (b.count / max) * plotH;
        const x = PAD.left + slot * i + (slot - barW) / 2;
        return (
          <g key={b.label} data-testid="histogram-bin" data-bin={b.label} data-count={b.count}>
            <rect
              x={x}
              y={PAD.top + plotH - h}
              width={barW}
              height={Math.max(b.count ? 1 : 0, h)}
              fill={props.color}
            >
              <title>{`${b.label}: ${b.count}`}</title>
            </rect>
            <text className="value" x={x + barW / 2} y={PAD.top + plotH - h - 4} textAnchor="middle">
              {b.count}
            </text>
            <text className="axis" x={x + barW / 2} y={HEIGHT - 6} textAnchor="middle">
              {b.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
