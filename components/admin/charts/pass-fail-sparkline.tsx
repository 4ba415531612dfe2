/**
 * A golden question's recent runs as a row of marks, oldest left: a filled green bar
 * for a pass, a short red one for a failure, so a drop reads at a glance. The label
 * spells the sequence out for screen readers.
 */
export function PassFailSparkline(props: { runs: { passed: boolean; createdAt: string }[] }) {
  const runs = [...props.runs].reverse(); // oldest first
  const step = 7;
  const width = Math.max(step, runs.length * step);
  const passed = runs.filter((r) => r.passed).length;
  const label = runs.length
    ? `${passed} of ${runs.length} recent runs passed, oldest to newest: ${runs.map((r) => (r.passed ? "pass" : "fail")).join(", ")}`
    : "Not run yet";
  return (
    <svg
      className="sparkline"
      width={width}
      height={20}
      role="img"
      aria-label={label}
      data-testid="golden-sparkline"
      data-runs={runs.map((r) => (r.passed ? "p" : "f")).join("")}
    >
      {runs.map((r, i) => (
        <rect
          key={i}
          x={i * step}
          y={r.passed ? 2 : 11}
          width={step - 2}
          height={r.passed ? 16 : 7}
          rx={1}
          fill={r.passed ? "#1f7a46" : "#b42318"}
        >
          <title>{`${new Date(r.createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC: ${r.passed ? "pass" : "fail"}`}</title>
        </rect>
      ))}
    </svg>
  );
}
