/** Set-Cookie values for the sign-in cookies: httpOnly, SameSite=Strict (no cross-site posts), Secure on https. */
import "server-only";

export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto");
  return (
    (forwarded ? forwarded.split(",")[0]?.trim() : new URL(request.url).protocol.replace(":", "")) === "https"
  );
}

/** A cookie holding `value` for `maxAge` seconds (0 with an empty value clears it). */
export function sessionCookie(request: Request, name: string, value: string, maxAge: number): string {
  const parts = [`${name}=${value}`, "Path=/", `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Strict"];
  if (isHttps(request)) parts.push("Secure");
  return parts.join("; ");
}
