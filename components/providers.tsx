"use client";
/**
 * Client-side providers for the whole app: one react-query client per browser tab
 * (created in state so server renders and tabs never share one). Also tells zod, which
 * the AI SDK's chat parses with in the browser, not to compile schemas with `new
 * Function`: its probe for that is refused by the pages' CSP (no 'unsafe-eval') and
 * reported as a violation even though zod catches it. The server keeps compiling.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { config as zodConfig } from "zod/v4/core";

if (typeof window !== "undefined") zodConfig({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
