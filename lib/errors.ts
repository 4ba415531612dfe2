/**
 * One typed error for the whole app. A code is `type:surface` (e.g.
 * `bad_request:repo_path`); the type decides the HTTP status, the message is safe
 * to show a user, and `cause` keeps the underlying error for logs only.
 */

export type ErrorType =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "too_many_requests"
  | "unavailable"
  | "internal";

export type ErrorCode = `${ErrorType}:${string}`;

const STATUS: Record<ErrorType, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

export class WayfinderError extends Error {
  readonly type: ErrorType;
  readonly surface: string;
  /** seconds a client should wait before retrying (sent as Retry-After) */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.name = "WayfinderError";
    const [type, surface] = code.split(":") as [ErrorType, string];
    this.type = type;
    this.surface = surface;
  }

  get status(): number {
    return STATUS[this.type];
  }

  toJSON(): { error: { code: ErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export function isWayfinderError(value: unknown): value is WayfinderError {
  return value instanceof WayfinderError;
}

/** Wraps anything thrown into a WayfinderError without leaking internals into the message. */
export function asWayfinderError(
  value: unknown,
  fallback: ErrorCode = "internal:unexpected",
): WayfinderError {
  if (value instanceof WayfinderError) return value;
  return new WayfinderError(fallback, "Something went wrong on our side. The error has been logged.", {
    cause: value,
  });
}

/** JSON HTTP response for an error (route handlers call this in their catch). */
export function errorResponse(value: unknown): Response {
  const error = asWayfinderError(value);
  if (error.type === "internal" || error.type === "unavailable") {
    console.error(`[wayfinder] ${error.code}: ${error.message}`, error.cause ?? "");
  }
  const headers = error.retryAfterSeconds ? { "retry-after": String(error.retryAfterSeconds) } : undefined;
  return Response.json(error.toJSON(), { status: error.status, headers });
}
