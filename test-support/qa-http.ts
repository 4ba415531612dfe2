/**
 * A real HTTP server for route handlers in tests: node:http on 127.0.0.1:0 turns each
 * IncomingMessage into a fetch Request and writes the handler's Response back as its
 * body stream produces chunks (never buffered), so a client sees what a browser would.
 * Plus an incremental reader for the UI message SSE stream.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createParser } from "eventsource-parser";

export type Handler = (request: Request, url: URL) => Promise<Response>;

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
      // The handler sees a client disconnect as an aborted request signal.
      const abort = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) abort.abort();
      });
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(key, value);
        else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
      }
      const method = req.method ?? "GET";
      const request = new Request(url, {
        method,
        headers,
        body: method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks),
        signal: abort.signal,
      });
      let response: Response;
      try {
        response = await handler(request, url);
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
        return;
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) {
        res.end();
        return;
      }
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

export interface SseEvent {
  /** the raw `data:` payload ("[DONE]" or JSON text) */
  data: string;
  /** parsed JSON, or null for [DONE] */
  json: Record<string, unknown> | null;
  /** which network read delivered it (0-based) and when (ms since reading began) */
  read: number;
  at: number;
}

/** Reads an SSE response incrementally, recording which read delivered each event. */
export async function readSse(response: Response): Promise<SseEvent[]> {
  if (!response.body) throw new Error("response has no body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  const t0 = performance.now();
  let read = 0;
  const parser = createParser({
    onEvent: ({ data }) =>
      events.push({
        data,
        json: data === "[DONE]" ? null : (JSON.parse(data) as Record<string, unknown>),
        read,
        at: performance.now() - t0,
      }),
  });
  for (; ; read++) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  return events;
}
