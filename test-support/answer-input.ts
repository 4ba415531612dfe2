/**
 * Answerer inputs for tests of the openings: a symbol's context item built from its
 * source text, and an answer input holding a question, its mode and a context.
 */
import type { AnswerInput, ContextItem } from "../lib/answerers/contract.ts";

/** A method's context item, keyed and titled by its name, spanning its text from `start`. */
export function symbolItem(name: string, path: string, text: string, start: number): ContextItem {
  return {
    key: `${path}::${name}`,
    kind: "symbol",
    path,
    startLine: start,
    endLine: start + text.split("\n").length - 1,
    title: name,
    text,
    tokens: 50,
    reason: "",
    score: 1,
    origin: "initial",
    pass: 1,
    facts: {
      qualifiedId: `${path}::${name}`,
      qualifiedName: name,
      kind: "method",
      signature: "",
      docstring: "",
      raises: [],
      mutates: [],
      errorStrings: [],
      calls: [],
      fanIn: 1,
      fanOut: 1,
    },
    truncated: false,
  };
}

/** A first-pass answer input with no anchors, graph or history. */
export function answerInput(
  question: string,
  mode: AnswerInput["mode"],
  context: ContextItem[],
): AnswerInput {
  return {
    question,
    mode,
    pass: 1,
    maxPasses: 3,
    context,
    graph: { triples: [] },
    anchors: {
      exceptionTypes: [],
      messages: [],
      stackFrames: [],
      identifiers: [],
      paths: [],
      keywords: [],
      literals: [],
    },
    reasoningHistory: [],
    notFound: new Set(),
    history: [],
  };
}
