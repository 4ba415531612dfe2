"use client";
/**
 * The settings page body: every engine setting grouped as in seed 002, the provider
 * and model, Save (only what changed is sent; the server validates and names each
 * bad field), Reset to defaults behind a confirmation, the quality presets and the
 * change log. Server state lives in react-query; a save replaces it with the answer.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import type { SettingsView } from "@/lib/admin/settings";
import { flatten, GROUP_ORDER, GROUP_TITLES, SETTING_FIELDS } from "@/lib/settings/fields";
import { AdminApiError, adminFetch, adminKeys, fieldErrorMap } from "./admin-api";
import { ChangeLog } from "./change-log";
import { ModeBudgetGrid } from "./mode-budget-grid";
import { PresetsTable } from "./presets-table";
import { ProviderFields, providerForm, type ProviderForm } from "./provider-fields";
import { SettingInput } from "./setting-input";
import { changedPatch, toFormValues, type FormValues } from "./setting-values";

export function SettingsForm({ initial }: { initial: SettingsView }) {
  const queryClient = useQueryClient();
  const { data: view = initial } = useQuery({
    queryKey: adminKeys.settings,
    queryFn: () => adminFetch<SettingsView>("/api/admin/settings"),
    initialData: initial,
  });
  const [values, setValues] = useState<FormValues>(() => toFormValues(view.config, SETTING_FIELDS));
  const [provider, setProvider] = useState<ProviderForm>(() => providerForm(view.provider));
  const [confirmReset, setConfirmReset] = useState(false);
  const [status, setStatus] = useState("");

  const adopt = (next: SettingsView, message: string) => {
    queryClient.setQueryData(adminKeys.settings, next);
    setValues(toFormValues(next.config, SETTING_FIELDS));
    setProvider(providerForm(next.provider));
    setStatus(message);
  };

  const save = useMutation({
    mutationFn: (body: { cgrag?: object; llm?: object }) =>
      adminFetch<SettingsView>("/api/admin/settings", { method: "PUT", body }),
    onSuccess: (next) => {
      const lastSeen = view.changes[0]?.id ?? 0;
      const logged = next.changes.filter((c) => c.id > lastSeen).length;
      adopt(
        next,
        logged > 0
          ? `Saved ${logged} ${logged === 1 ? "change" : "changes"}; the next question uses them.`
          : "Saved.",
      );
    },
    onError: () => setStatus(""),
  });
  const reset = useMutation({
    mutationFn: () => adminFetch<SettingsView>("/api/admin/settings", { method: "DELETE" }),
    onSuccess: (next) => {
      setConfirmReset(false);
      save.reset();
      adopt(next, "Every setting is back to its default (or its CGRAG_* environment value).");
    },
  });

  const errors = fieldErrorMap(save.error);
  // After a refused save, take keyboard users to the first field the server named.
  useEffect(() => {
    if (save.error instanceof AdminApiError && save.error.fields.length) {
      document.querySelector<HTMLElement>('[data-testid="settings-form"] [aria-invalid="true"]')?.focus();
    }
  }, [save.error]);
  const defaults = useMemo(() => flatten(view.inherited), [view.inherited]);
  const overridden = useMemo(() => new Set(view.overridden), [view.overridden]);
  const fromEnv = useMemo(() => new Set(view.fromEnv), [view.fromEnv]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const cgrag = changedPatch(values, view.config, SETTING_FIELDS);
    const stored = providerForm(view.provider);
    const llmChanged = (Object.keys(provider) as (keyof ProviderForm)[]).some(
      (k) => provider[k] !== stored[k],
    );
    if (!Object.keys(cgrag).length && !llmChanged) {
      setStatus("Nothing changed.");
      return;
    }
    setStatus("");
    save.mutate({
      ...(Object.keys(cgrag).length ? { cgrag } : {}),
      ...(llmChanged
        ? {
            llm: {
              provider: provider.provider || null,
              model: provider.model || null,
              baseURL: provider.baseURL || null,
            },
          }
        : {}),
    });
  };

  const setValue = (key: string, value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));
  const generalError =
    save.error instanceof AdminApiError && !save.error.fields.length ? save.error.message : null;

  return (
    <div className="settings-page">
      {view.problems.length ? (
        <div className="notice notice-warning" role="alert" data-testid="settings-problems">
          <strong>Stored settings are not in effect:</strong> {view.problems.join("; ")}. Save valid values or
          reset.
        </div>
      ) : null}
      <form onSubmit={onSubmit} noValidate data-testid="settings-form" aria-describedby="settings-intro">
        <p id="settings-intro" className="muted small">
          Values apply to the next question, no restart needed. Order of precedence: defaults ← CGRAG_*
          environment ← this page ← the question&apos;s quality preset ← per-request overrides.
        </p>
        {GROUP_ORDER.map((group) => {
          const fields = SETTING_FIELDS.filter((f) => f.group === group);
          return (
            <fieldset key={group} className="card settings-group" data-testid={`group-${group}`}>
              <legend>{GROUP_TITLES[group].title}</legend>
              <p className="small muted group-help">{GROUP_TITLES[group].help}</p>
              {group === "modeBudgets" ? (
                <ModeBudgetGrid
                  values={values}
                  defaults={defaults}
                  overridden={overridden}
                  errors={errors}
                  onChange={setValue}
                />
              ) : (
                <div className="setting-grid">
                  {fields.map((field) => (
                    <SettingInput
                      key={field.key}
                      field={field}
                      value={values[field.key] ?? ""}
                      defaultValue={defaults[field.key]}
                      overridden={overridden.has(field.key)}
                      fromEnv={fromEnv.has(field.key)}
                      error={errors.get(field.key)}
                      onChange={(v) => setValue(field.key, v)}
                    />
                  ))}
                </div>
              )}
            </fieldset>
          );
        })}
        <fieldset className="card settings-group" data-testid="group-provider">
          <legend>Provider and model</legend>
          <ProviderFields view={view.provider} value={provider} errors={errors} onChange={setProvider} />
        </fieldset>

        <div className="settings-actions" data-testid="settings-actions">
          <button type="submit" className="button" disabled={save.isPending} data-testid="settings-save">
            {save.isPending ? "Saving…" : "Save settings"}
          </button>
          {confirmReset ? (
            <span className="confirm" role="group" aria-label="Confirm reset">
              <span className="small">Reset every setting and the provider choice?</span>
              <button
                type="button"
                className="button danger"
                onClick={() => reset.mutate()}
                disabled={reset.isPending}
                data-testid="settings-reset-confirm"
              >
                {reset.isPending ? "Resetting…" : "Yes, reset"}
              </button>
              <button type="button" className="button secondary" onClick={() => setConfirmReset(false)}>
                Cancel
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="button secondary"
              onClick={() => setConfirmReset(true)}
              data-testid="settings-reset"
            >
              Reset to defaults…
            </button>
          )}
          <p className="small settings-status" role="status" data-testid="settings-status">
            {status}
          </p>
        </div>
        {save.error instanceof AdminApiError && save.error.fields.length ? (
          <div className="notice notice-error" role="alert" data-testid="settings-error">
            Not saved:{" "}
            {save.error.fields.length === 1 ? "one value needs" : `${save.error.fields.length} values need`}{" "}
            fixing (marked below each field).
          </div>
        ) : null}
        {generalError || reset.error ? (
          <p className="field-error" role="alert">
            {generalError ?? (reset.error as Error).message}
          </p>
        ) : null}
      </form>

      <section className="card" aria-labelledby="presets-title">
        <h2 id="presets-title">Quality presets</h2>
        <p className="small muted">
          A question picks quick, balanced or thorough; this is what each makes of the settings above (only
          the values a preset changes).
        </p>
        <PresetsTable presets={view.presets} />
      </section>

      <section className="card" aria-labelledby="changes-title">
        <h2 id="changes-title">Change log</h2>
        <ChangeLog changes={view.changes} />
      </section>
    </div>
  );
}
