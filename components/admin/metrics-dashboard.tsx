"use client";
/**
 * The admin dashboard: totals, charts and the recent questions, from
 * GET /api/admin/metrics through react-query (server-rendered first, then refreshed
 * every 15 s and whenever the range or repository filter changes).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { DashboardData, MetricsRange } from "@/lib/admin/metrics";
import { QUERY_MODE_LIST } from "@/lib/qa/types";
import { adminFetch, adminKeys } from "./admin-api";
import { HistogramChart } from "./charts/histogram-chart";
import { LineChart } from "./charts/line-chart";
import { RangeBarChart } from "./charts/range-bar-chart";
import { formatBucket, formatCompact, formatLatency, formatPercent, MODE_COLORS } from "./charts/scale";
import { StackedBarChart } from "./charts/stacked-bar-chart";
import { RecentQuestionsTable } from "./recent-questions-table";

const RANGES: { value: MetricsRange; label: string }[] = [
  { value: "24h", label: "Last 24 hours" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "all", label: "All time" },
];

const REFRESH_MS = 15_000;

export function MetricsDashboard({
  initial,
  initialRange,
}: {
  initial: DashboardData;
  initialRange: MetricsRange;
}) {
  const [range, setRange] = useState<MetricsRange>(initialRange);
  const [repositoryId, setRepositoryId] = useState<string | null>(initial.repositoryId);
  const [tokenView, setTokenView] = useState<"average" | "total">("average");
  const ids = useId();
  const isInitial = range === initialRange && repositoryId === initial.repositoryId;
  const {
    data = initial,
    isFetching,
    isError,
    refetch,
  } = useQuery({
    queryKey: adminKeys.metrics(range, repositoryId),
    queryFn: () => {
      const query = new URLSearchParams({ range });
      if (repositoryId) query.set("repositoryId", repositoryId);
      return adminFetch<DashboardData>(`/api/admin/metrics?${query}`);
    },
    initialData: isInitial ? initial : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const d = data.dashboard;
  const labels = d.timeline.map((b) => formatBucket(b.start, d.bucket));
  const per = d.bucket === "hour" ? "hour" : d.bucket === "day" ? "day" : "week";
  const tokenToggle = (
    <fieldset className="segmented" aria-label="Tokens shown">
      {(["average", "total"] as const).map((v) => (
        <label key={v}>
          <input
            type="radio"
            name={`${ids}-tokens`}
            value={v}
            checked={tokenView === v}
            onChange={() => setTokenView(v)}
          />
          {v === "average" ? "Average" : "Total"}
        </label>
      ))}
    </fieldset>
  );
  const busiest = Object.entries(d.totals.byMode).sort((a, b) => b[1] - a[1])[0];

  return (
    <div className="admin-dashboard" data-testid="metrics-dashboard" data-fetching={isFetching}>
      <div className="admin-toolbar">
        <label className="field-inline" htmlFor={`${ids}-range`}>
          Range
          <select
            id={`${ids}-range`}
            value={range}
            onChange={(e) => setRange(e.target.value as MetricsRange)}
            data-testid="metrics-range"
          >
            {RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline" htmlFor={`${ids}-repo`}>
          Repository
          <select
            id={`${ids}-repo`}
            value={repositoryId ?? ""}
            onChange={(e) => setRepositoryId(e.target.value || null)}
            data-testid="metrics-repository"
          >
            <option value="">All repositories</option>
            {data.repositories.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button secondary"
          onClick={() => void refetch()}
          data-testid="metrics-refresh"
        >
          {isFetching ? "Refreshing…" : "Refresh"}
        </button>
        <span className="small muted" role="status">
          {isError ? "Could not refresh; showing the last numbers." : `Times in UTC, one point per ${per}.`}
        </span>
      </div>

      <dl className="stat-tiles" data-testid="metrics-totals">
        <Tile label="Questions" value={String(d.totals.questions)} testId="total-questions" />
        <Tile
          label="Error rate"
          value={formatPercent(d.totals.errorRate)}
          detail={`${d.totals.errors} failed`}
          testId="total-error-rate"
        />
        <Tile
          label="Fallback rate"
          value={formatPercent(d.totals.fallbackRate)}
          detail={`${d.totals.fallbacks} answered offline after a provider error`}
          testId="total-fallback-rate"
        />
        <Tile
          label="Gap resolution"
          value={formatPercent(d.totals.gapResolutionRate)}
          detail={`${d.totals.gapsResolved} of ${d.totals.gapsIdentified} gaps`}
          testId="total-gap-rate"
        />
        <Tile
          label="Tokens per answer"
          value={d.totals.avgTokens === null ? "—" : formatCompact(d.totals.avgTokens)}
          detail={`${formatCompact(d.totals.tokens)} in total`}
          testId="total-tokens"
        />
      </dl>

      <div className="chart-grid">
        <div className="span-2">
          <StackedBarChart
            title="Questions per mode"
            testId="chart-questions-per-mode"
            summary={
              d.totals.questions
                ? `${d.totals.questions} questions; ${QUERY_MODE_LIST.map((m) => `${d.totals.byMode[m]} ${m}`).join(", ")}${busiest && busiest[1] ? `; most were ${busiest[0]}` : ""}.`
                : "No questions in this range yet."
            }
            series={QUERY_MODE_LIST.map((m) => ({ key: m, label: m, color: MODE_COLORS[m] ?? "#888" }))}
            buckets={d.timeline.map((b, i) => ({ label: labels[i] ?? "", values: b.byMode }))}
          />
        </div>
        <HistogramChart
          title="Passes per answer"
          testId="chart-passes"
          color="#2f5bd3"
          binLabel="Passes"
          summary={
            d.totals.answered
              ? d.passes
                  .map((p) => `${p.count} with ${p.passes} ${p.passes === 1 ? "pass" : "passes"}`)
                  .join(", ")
              : "No answered questions yet."
          }
          bins={d.passes.map((p) => ({ label: String(p.passes), count: p.count }))}
        />
        <LineChart
          title="Gap resolution rate"
          testId="chart-gap-rate"
          summary={`${formatPercent(d.totals.gapResolutionRate)} of identified gaps were resolved (${d.totals.gapsUnresolved} stayed unresolved).`}
          labels={labels}
          max={1}
          format={(v) => formatPercent(v)}
          series={[
            {
              key: "gaps",
              label: "Resolved / identified",
              color: "#15803d",
              values: d.timeline.map((b) => b.gapResolutionRate),
            },
          ]}
        />
        <LineChart
          actions={tokenToggle}
          title={tokenView === "average" ? "Tokens per answer (average)" : "Tokens (total)"}
          testId="chart-tokens"
          summary={`${formatCompact(d.totals.tokens)} context tokens in total, ${d.totals.avgTokens ?? 0} per answer on average.`}
          labels={labels}
          format={formatCompact}
          series={[
            {
              key: tokenView,
              label: tokenView === "average" ? "Average per answer" : `Total per ${per}`,
              color: "#7e22ce",
              values: d.timeline.map((b) =>
                tokenView === "average" ? b.avgTokens : b.answered ? b.tokens : null,
              ),
            },
          ]}
        />
        <RangeBarChart
          title="Latency per mode"
          testId="chart-latency"
          summary={
            d.latency
              .filter((l) => l.count)
              .map((l) => `${l.mode} p50 ${formatLatency(l.p50)}, p95 ${formatLatency(l.p95)}`)
              .join("; ") || "No answered questions yet."
          }
          lowLabel="p50"
          highLabel="p95"
          format={formatLatency}
          rows={d.latency.map((l) => ({
            label: l.mode,
            color: MODE_COLORS[l.mode] ?? "#888",
            low: l.p50,
            high: l.p95,
            count: l.count,
          }))}
        />
        <div className="span-2">
          <LineChart
            title="Error and fallback rates"
            testId="chart-errors"
            summary={`Errors ${formatPercent(d.totals.errorRate)} of questions; provider fallbacks ${formatPercent(d.totals.fallbackRate)} of answers.`}
            labels={labels}
            max={1}
            format={(v) => formatPercent(v)}
            series={[
              {
                key: "errors",
                label: "Error rate",
                color: "#b42318",
                values: d.timeline.map((b) => b.errorRate),
              },
              {
                key: "fallbacks",
                label: "Fallback rate",
                color: "#9a5b00",
                dashed: true,
                values: d.timeline.map((b) => b.fallbackRate),
              },
            ]}
          />
        </div>
      </div>

      <RecentQuestionsTable questions={data.recent} />
    </div>
  );
}

function Tile(props: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <div className="stat-tile card" data-testid={props.testId}>
      <dt className="small muted">{props.label}</dt>
      <dd>
        <span className="stat-value">{props.value}</span>
        {props.detail ? <span className="small muted stat-detail">{props.detail}</span> : null}
      </dd>
    </div>
  );
}
