/**
 * One engine setting as a labelled input: a switch for flags, a number box with the
 * schema's limits, or a comma-separated list. Shows the default, whether the value
 * is the admin's or the environment's, and the server's message when it is invalid.
 */
import { formatSettingValue, type SettingField } from "@/lib/settings/fields";

export function SettingInput(props: {
  field: SettingField;
  value: string | boolean;
  defaultValue: unknown;
  overridden: boolean;
  fromEnv: boolean;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const { field } = props;
  const id = `setting-${field.key.replace(/\./g, "-")}`;
  const describedBy = [`${id}-help`, props.error ? `${id}-error` : null].filter(Boolean).join(" ");
  const origin = props.overridden ? (
    <span className="badge" title="Set on this page">
      changed
    </span>
  ) : props.fromEnv ? (
    <span className="badge warn" title="Set by a CGRAG_* environment variable">
      env
    </span>
  ) : null;

  const help = (
    <p id={`${id}-help`} className="small muted">
      {field.help} Default {formatSettingValue(props.defaultValue)}
      {field.unit && field.kind !== "boolean" ? ` ${field.unit}` : ""}.{field.note ? ` ${field.note}` : ""}
    </p>
  );
  const error = props.error ? (
    <p id={`${id}-error`} className="field-error small" data-testid={`error-${field.key}`}>
      {props.error}
    </p>
  ) : null;

  if (field.kind === "boolean") {
    return (
      <div className="setting setting-switch" data-testid={`setting-${field.key}`}>
        <label htmlFor={id}>
          <input
            id={id}
            type="checkbox"
            role="switch"
            checked={props.value === true}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => props.onChange(e.target.checked)}
            data-testid={`input-${field.key}`}
          />
          <span>{field.label}</span> {origin}
        </label>
        {help}
        {error}
      </div>
    );
  }

  return (
    <div className="setting field" data-testid={`setting-${field.key}`}>
      <label htmlFor={id}>
        {field.label}
        {field.unit ? <span className="muted"> ({field.unit})</span> : null} {origin}
      </label>
      <input
        id={id}
        type={field.kind === "int-list" ? "text" : "number"}
        inputMode={field.kind === "number" ? "decimal" : "numeric"}
        min={field.kind === "int-list" ? undefined : field.min}
        max={field.kind === "int-list" ? undefined : field.max}
        step={field.kind === "number" ? "any" : 1}
        value={String(props.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={`input-${field.key}`}
        placeholder={field.kind === "int-list" ? "1000, 750, 500" : undefined}
      />
      {help}
      {error}
    </div>
  );
}
