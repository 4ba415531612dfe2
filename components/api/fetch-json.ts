/**
 * JSON fetch for client components. Non-2xx answers become an ApiError carrying the
 * server's error code (`bad_request:repo_path` …) and its user-facing message, so
 * forms can put each error next to the field it is about.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", ...init?.headers },
  });
  const body = (await response.json().catch(() => null)) as
    | (T & { error?: { code?: string; message?: string } })
    | null;
  if (!response.ok) {
    throw new ApiError(
      body?.error?.code ?? `http:${response.status}`,
      body?.error?.message ?? `The server answered ${response.status}.`,
      response.status,
    );
  }
  return body as T;
}
