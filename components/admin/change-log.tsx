/** Who changed which setting, from what to what, when (newest first). */
import type { SettingChangeView } from "@/lib/admin/settings";
import { formatSettingValue } from "@/lib/settings/fields";

const WHEN = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
  timeZone: "UTC",
});

function show(key: string, value: unknown): string {
  // Provider fields store null for "as the environment says".
  if (value === null && key.startsWith("llm.")) return "environment";
  return formatSettingValue(value);
}

export function ChangeLog({ changes }: { changes: SettingChangeView[] }) {
  if (!changes.length) {
    return (
      <p className="muted" data-testid="change-log-empty">
        No changes yet: every value is the default or comes from the environment.
      </p>
    );
  }
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Change log (scrolls sideways)">
      <table className="admin-table" data-testid="change-log">
        <thead>
          <tr>
            <th scope="col">When (UTC)</th>
            <th scope="col">Who</th>
            <th scope="col">Setting</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.id} data-testid="change-row" data-key={c.key}>
              <td className="nowrap">{WHEN.format(new Date(c.createdAt))}</td>
              <td>{c.actor}</td>
              <td>
                {c.label} <code className="small">{c.key}</code>
              </td>
              <td className="nowrap" data-testid="change-values">
                {show(c.key, c.oldValue)} → {show(c.key, c.newValue)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
