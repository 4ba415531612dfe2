"use client";
/**
 * The frame every chart shares: a heading, a one-line summary that doubles as the
 * SVG's accessible name, an optional legend, and the numbers as a table behind a
 * disclosure for screen readers and anyone who wants exact values. It measures the
 * canvas so the chart draws at its real width.
 */
import type { ReactNode } from "react";
import { useElementWidth } from "./use-element-width";

export interface ChartTable {
  columns: string[];
  rows: (string | number)[][];
}

export interface LegendItem {
  label: string;
  color: string;
  /** drawn as a dashed line sample (line charts) */
  dashed?: boolean;
}

export function ChartFrame(props: {
  title: string;
  summary: string;
  testId: string;
  legend?: LegendItem[];
  table: ChartTable;
  /** controls shown beside the title (e.g. a series toggle) */
  actions?: ReactNode;
  children: (width: number) => ReactNode;
}) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  return (
    <figure className="chart card" data-testid={props.testId}>
      <figcaption>
        <div className="chart-head">
          <h2 className="chart-title">{props.title}</h2>
          {props.actions}
        </div>
        <p className="chart-summary small muted">{props.summary}</p>
      </figcaption>
      <div className="chart-canvas" ref={ref}>
        {props.children(width)}
      </div>
      {props.legend?.length ? (
        <ul className="chart-legend small" aria-label="Legend">
          {props.legend.map((item) => (
            <li key={item.label}>
              <span
                className={item.dashed ? "legend-swatch dashed" : "legend-swatch"}
                style={{ borderColor: item.color, background: item.dashed ? "transparent" : item.color }}
                aria-hidden
              />
              {item.label}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="chart-data small">
        <summary>Data table</summary>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                {props.table.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.table.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) =>
                    j === 0 ? (
                      <th key={j} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={j}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
