/**
 * A scripted language model behind a real OpenAI-compatible HTTP endpoint, for specs
 * that need an answer a model wrote (the offline evidence engine never writes prose
 * like a model): every streamed chat completion replays the same reply as server-sent
 * events, a few characters per event. Any other request (structured classification,
 * follow-up rewriting) gets a 503, which Wayfinder answers by falling back as it would
 * for a provider that failed.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedModelServer {
  /** the base URL to configure as the provider's (ends in /v1) */
  baseURL: string;
  /** how many answers were streamed */
  streamed(): number;
  close(): Promise<void>;
}

function chunk(delta: Record<string, unknown>, finish: string | null): string {
  const body = {
    id: "chatcmpl-scripted",
    object: "chat.completion.chunk",
    created: 0,
    model: "scripted",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(finish ? { usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 } } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

export async function startScriptedModel(reply: string): Promise<ScriptedModelServer> {
  let streamed = 0;
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (data: Buffer) => (body += data.toString()));
    request.on("end", () => {
      const stream = request.url?.endsWith("/chat/completions") && /"stream"\s*:\s*true/.test(body);
      if (!stream) {
        response.writeHead(503, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "scripted model: streamed answers only" } }));
        return;
      }
      streamed++;
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.write(chunk({ role: "assistant", content: "" }, null));
      for (let i = 0; i < reply.length; i += 24)
        response.write(chunk({ content: reply.slice(i, i + 24) }, null));
      response.write(chunk({}, "stop"));
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    streamed: () => streamed,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
