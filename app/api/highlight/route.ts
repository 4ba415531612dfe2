/**
 * POST highlights citation snippets for the chat (readers). The snippets already
 * streamed to the browser; highlighting them here keeps shiki out of the client bundle.
 */
import { highlightCode } from "@/components/source/highlight";
import { apiRoute } from "../api-route";
import { parseJsonBody } from "../parse-request";
import { MAX_HIGHLIGHT_BODY_BYTES, highlightSchema } from "./schema";

export const POST = apiRoute({ access: "reader" }, async (request) => {
  const { items } = await parseJsonBody(request, highlightSchema, "highlight", {
    maxBytes: MAX_HIGHLIGHT_BODY_BYTES,
  });
  const html = await Promise.all(items.map((item) => highlightCode(item)));
  return Response.json({ html });
});
