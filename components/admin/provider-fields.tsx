/**
 * Provider and model choice. Only the provider, model id and base URL are stored;
 * keys stay in the environment, so this shows which key variables are set, never
 * their values.
 */
import type { ProviderView } from "@/lib/settings/provider";

export interface ProviderForm {
  provider: string;
  model: string;
  baseURL: string;
}

export function providerForm(view: ProviderView): ProviderForm {
  return {
    provider: view.stored.provider ?? "",
    model: view.stored.model ?? "",
    baseURL: view.stored.baseURL ?? "",
  };
}

const LABELS: Record<string, string> = {
  none: "None (offline evidence engine)",
  openai: "OpenAI",
  anthropic: "Anthropic",
  "openai-compatible": "OpenAI-compatible server (Ollama, vLLM, LM Studio…)",
};

export function ProviderFields(props: {
  view: ProviderView;
  value: ProviderForm;
  errors: Map<string, string>;
  onChange: (value: ProviderForm) => void;
}) {
  const { view, value, errors } = props;
  const set = (patch: Partial<ProviderForm>) => props.onChange({ ...value, ...patch });
  const keys = Object.entries(view.keys)
    .map(([name, present]) => `${name} ${present ? "set" : "not set"}`)
    .join(", ");
  const field = (key: "provider" | "model" | "baseURL") => ({
    id: `llm-${key}`,
    "aria-invalid": errors.has(`llm.${key}`) ? true : undefined,
    "aria-describedby": errors.has(`llm.${key}`) ? `llm-${key}-error` : `llm-${key}-help`,
  });
  const error = (key: string) =>
    errors.has(`llm.${key}`) ? (
      <p id={`llm-${key}-error`} className="field-error small" data-testid={`error-llm.${key}`}>
        {errors.get(`llm.${key}`)}
      </p>
    ) : null;

  return (
    <div className="provider-fields">
      <p className="small muted" data-testid="provider-effective">
        Questions now use{" "}
        <strong>
          {view.effective.provider === "none"
            ? "the offline evidence engine"
            : `${view.effective.provider}${view.effective.model ? `:${view.effective.model}` : " (its default model)"}`}
        </strong>
        {view.effective.provider !== "none" &&
        !view.effective.hasApiKey &&
        view.effective.provider !== "openai-compatible"
          ? " — no API key, so answers fall back to the evidence engine"
          : ""}
        . API keys come from the environment only ({keys}).
      </p>
      <div className="setting-grid">
        <div className="field">
          <label htmlFor="llm-provider">Provider</label>
          <select
            {...field("provider")}
            value={value.provider}
            onChange={(e) => set({ provider: e.target.value })}
            data-testid="input-llm.provider"
          >
            <option value="">Environment ({view.environment.provider})</option>
            {Object.entries(LABELS).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
          <p id="llm-provider-help" className="small muted">
            Used to classify, rewrite follow-ups and answer. Provider errors fall back to the evidence engine.
          </p>
          {error("provider")}
        </div>
        <div className="field">
          <label htmlFor="llm-model">Model id</label>
          <input
            {...field("model")}
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder={view.environment.model ?? "provider default"}
            value={value.model}
            onChange={(e) => set({ model: e.target.value })}
            data-testid="input-llm.model"
          />
          <p id="llm-model-help" className="small muted">
            Empty: the environment&apos;s model or the provider&apos;s default.
          </p>
          {error("model")}
        </div>
        <div className="field">
          <label htmlFor="llm-baseURL">Base URL</label>
          <input
            {...field("baseURL")}
            type="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={view.environment.baseURL ?? "http://127.0.0.1:11434/v1"}
            value={value.baseURL}
            onChange={(e) => set({ baseURL: e.target.value })}
            data-testid="input-llm.baseURL"
          />
          <p id="llm-baseURL-help" className="small muted">
            For OpenAI-compatible servers or a proxy. Empty: the environment&apos;s.
          </p>
          {error("baseURL")}
        </div>
      </div>
    </div>
  );
}
