/**
 * Client side of the admin API: JSON requests whose errors keep the server's
 * per-field messages, a redirect to the login page when the session has expired,
 * and the react-query keys every admin component shares.
 */
export interface FieldError {
  key: string;
  message: string;
}

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: FieldError[],
  ) {
    super(message);
    this.name = "AdminApiError";
  }
}

export const adminKeys = {
  settings: ["admin", "settings"] as const,
  metrics: (range: string, repositoryId: string | null) => ["admin", "metrics", range, repositoryId] as const,
  golden: (repositoryId: string | null) => ["admin", "golden", repositoryId] as const,
};

export async function adminFetch<T>(url: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(url, {
    method: init?.method ?? "GET",
    headers: init?.body === undefined ? undefined : { "content-type": "application/json" },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
    cache: "no-store",
  });
  if (response.status === 401) {
    // The login lapsed (or the token changed): sign in again and come back here.
    window.location.assign(
      `/admin/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`,
    );
    throw new AdminApiError(401, "Your admin session has ended. Sign in again.", []);
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as
    | (T & { error?: { message?: string; fields?: FieldError[] } })
    | null;
  if (!response.ok) {
    throw new AdminApiError(
      response.status,
      body?.error?.message ?? `The server answered ${response.status}.`,
      body?.error?.fields ?? [],
    );
  }
  return body as T;
}

/** Field errors by key, for `aria-invalid` and the message under each input. */
export function fieldErrorMap(error: unknown): Map<string, string> {
  const map = new Map<string, string>();
  if (error instanceof AdminApiError) for (const f of error.fields) map.set(f.key, f.message);
  return map;
}
