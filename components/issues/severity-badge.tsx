/** A finding's severity as a coloured badge. */
const TONE: Record<string, string> = { high: "bad", medium: "warn", low: "" };

export function SeverityBadge({ severity }: { severity: string }) {
  return (
    <span className={`badge ${TONE[severity] ?? ""}`} data-testid="severity" data-severity={severity}>
      {severity}
    </span>
  );
}
