/** Middleware that reads the routing table before a request is handled. */
import type { Request } from "./routing.ts";

/** The methods of every route that matches the request. */
export function allowedMethods(table: { routes: { match(r: Request): boolean; methods: string[] }[] }, request: Request): string[] {
  const methods: string[] = [];
  for (const route of table.routes) if (route.match(request)) methods.push(...route.methods);
  return methods;
}
