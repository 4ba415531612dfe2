/**
 * The chat's HTTP transport to POST /api/qa. A UI message stream always ends with
 * `data: [DONE]`; a response body that ends without it was cut off (proxy timeout,
 * server crash, lost connection), which the AI SDK would otherwise treat as a normal
 * end. We report that through `onInterrupted` instead of erroring the stream: an
 * error would make the SDK drop chunks it has received but not yet applied, and the
 * partial answer should stay on screen next to the retry.
 */
import { DefaultChatTransport } from "ai";
import type { WayfinderUIMessage } from "@/lib/qa/types";

export class StreamInterruptedError extends Error {
  constructor() {
    super("The answer stream ended before it was complete.");
    this.name = "StreamInterruptedError";
  }
}

const interruptionAwareFetch =
  (onInterrupted: () => void): typeof fetch =>
  async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok || !response.body) return response;
    const decoder = new TextDecoder();
    let tail = "";
    const guarded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          tail = (tail + decoder.decode(chunk, { stream: true })).slice(-64);
          controller.enqueue(chunk);
        },
        flush() {
          if (!tail.includes("[DONE]")) onInterrupted();
        },
      }),
    );
    return new Response(guarded, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

export function createChatTransport(onInterrupted: () => void): DefaultChatTransport<WayfinderUIMessage> {
  return new DefaultChatTransport<WayfinderUIMessage>({
    api: "/api/qa",
    fetch: interruptionAwareFetch(onInterrupted),
  });
}

export interface ChatFailure {
  interrupted: boolean;
  message: string;
}

/** What to tell the user about a failed request: an interruption, or the server's own message. */
export function describeChatError(error: Error): ChatFailure {
  const interrupted =
    error.name === "StreamInterruptedError" ||
    error instanceof TypeError ||
    /network|failed to fetch|load failed|aborted|terminated|ended before/i.test(error.message);
  if (interrupted) {
    return { interrupted: true, message: "The connection closed before the answer was complete." };
  }
  try {
    const parsed = JSON.parse(error.message) as { error?: { message?: string } };
    if (parsed.error?.message) return { interrupted: false, message: parsed.error.message };
  } catch {
    // Not a JSON error body: the message is plain text already.
  }
  return { interrupted: false, message: error.message || "The answer could not be completed." };
}
