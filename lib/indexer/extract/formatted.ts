/**
 * Messages made by a formatting call: `sprintf('Failed to parse dotenv file. %s', $e)`,
 * `String.format("No handler for %s", t)`, `string.Format(…)`, `fmt.Sprintf(…)`,
 * `snprintf(buf, n, "…", …)`, Python's `"… {}".format(x)`. The format string is the
 * message, its placeholders kept as written, so a reported message matches it as a
 * template (its filled-in parts are other places' values or messages).
 */
import type { Node } from "web-tree-sitter";
import { lastIdentifier } from "./common";
import type { MessageReader } from "./constants";

/** Functions whose format-string argument is the text they return. */
const FORMATTERS: ReadonlySet<string> = new Set([
  "sprintf",
  "vsprintf",
  "snprintf",
  "format",
  "formatted",
  "Sprintf",
  "Format",
]);

/** The callee and arguments of a call node, in each grammar's field names. */
function callParts(node: Node): { callee: Node; args: Node | null } | null {
  const callee =
    node.childForFieldName("function") ?? node.childForFieldName("name") ?? node.childForFieldName("method");
  if (!callee || !/call|invocation/.test(node.type)) return null;
  return { callee, args: node.childForFieldName("arguments") };
}

/** The format string of a formatting call as the message it makes; null for any other node. */
export function formattedMessage(
  node: Node,
  x: MessageReader & { firstMessage(args: Node | null): string | null },
): string | null {
  const parts = callParts(node);
  if (!parts || !FORMATTERS.has(lastIdentifier(x.text(parts.callee)))) return null;
  // `"… {}".format(x)`: the string is the receiver, not an argument.
  const receiver = parts.callee.childForFieldName("object");
  const own = receiver ? x.messageOf(receiver) : null;
  return own ?? x.firstMessage(parts.args);
}
