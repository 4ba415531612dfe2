/** Which questions ask for the callers of something (the exploratory retriever then walks the graph backward). */
import { describe, expect, it } from "vitest";
import { asksForCallers } from "./exploratory.ts";

describe("asksForCallers", () => {
  it.each([
    "What calls charge_card?",
    "who calls verify_user",
    "Which functions call resolveGap?",
    "Which parts of the code use Dataset.merge?",
    "What uses the embedder?",
    "callers of parseCitations",
    "Show me the call sites of merge_core",
    "Where is merge_core used?",
    "Where does the app use the vector store?",
    "Is askQuestion called from the CLI or by the route?",
  ])("yes: %s", (q) => expect(asksForCallers(q)).toBe(true));

  it.each([
    "Trace what happens when create_order is called",
    "What does merge_core call?",
    "How does the indexer parse Python files?",
    "Walk me through the startup sequence",
    "Why is a TypeError raised in merge?",
  ])("no: %s", (q) => expect(asksForCallers(q)).toBe(false));
});
