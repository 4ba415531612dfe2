/**
 * The per-mode budgets as a grid (modes × docs / source / issues) so the twelve
 * numbers read like seed 002's table; each cell is a labelled input of its own.
 */
import { FIELD_BY_KEY } from "@/lib/settings/fields";
import { QUERY_MODE_LIST } from "@/lib/qa/types";
import type { FormValues } from "./setting-values";

const SOURCES = [
  { key: "docs", label: "Docs", long: "wiki and docs" },
  { key: "source", label: "Source", long: "source code" },
  { key: "issues", label: "Issues", long: "issues store" },
] as const;

export function ModeBudgetGrid(props: {
  values: FormValues;
  defaults: Record<string, unknown>;
  overridden: Set<string>;
  errors: Map<string, string>;
  onChange: (key: string, value: string) => void;
}) {
  const problems = [...props.errors].filter(([key]) => key.startsWith("modeBudgets."));
  return (
    <div className="mode-budgets">
      <div className="table-scroll">
        <table className="admin-table budget-grid" data-testid="mode-budget-grid">
          <thead>
            <tr>
              <th scope="col">Mode</th>
              {SOURCES.map((s) => (
                <th scope="col" key={s.key} title={s.long}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {QUERY_MODE_LIST.map((mode) => (
              <tr key={mode}>
                <th scope="row">{mode}</th>
                {SOURCES.map((s) => {
                  const key = `modeBudgets.${mode}.${s.key}`;
                  const field = FIELD_BY_KEY.get(key);
                  const error = props.errors.get(key);
                  return (
                    <td key={s.key} className={props.overridden.has(key) ? "changed" : undefined}>
                      <input
                        type="number"
                        min={field?.min}
                        max={field?.max}
                        step={1}
                        aria-label={`${mode} budget from the ${s.long} (tokens, default ${String(props.defaults[key])})`}
                        aria-invalid={error ? true : undefined}
                        value={String(props.values[key] ?? "")}
                        onChange={(e) => props.onChange(key, e.target.value)}
                        data-testid={`input-${key}`}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {problems.length ? (
        <ul className="field-error small plain-list" role="list">
          {problems.map(([key, message]) => (
            <li key={key} data-testid={`error-${key}`}>
              {FIELD_BY_KEY.get(key)?.label ?? key}: {message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
