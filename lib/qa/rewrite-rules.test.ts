import { describe, expect, it } from "vitest";

import { type PriorTurn, rewriteFollowUp } from "./rewrite-rules";

const PARSE_CONFIG: PriorTurn[] = [{ question: "What does parse_config do?", subjects: ["parse_config"] }];
const CODEC: PriorTurn[] = [
  {
    question: "How do encode and decode in lib/codec.ts differ?",
    subjects: ["encode", "decode", "lib/codec.ts"],
  },
];

describe("rewriteFollowUp", () => {
  it.each([
    ["who calls it?", "who calls parse_config?"],
    ["what about its callers?", "what about parse_config's callers?"],
    ["and where is it called?", "and where is parse_config called?"],
    ["It returns what?", "parse_config returns what?"],
    ["Does it call validate_token?", "Does parse_config call validate_token?"],
    ["Which tests cover this function?", "Which tests cover parse_config?"],
    ["Show me the same function", "Show me parse_config"],
    ["who calls?", "who calls parse_config?"],
    ["What does this return?", "What does parse_config return?"],
    ["and what does that do?", "and what does parse_config do?"],
    ["what about load_env?", "What does load_env do?"],
    ["why?", "why? (about parse_config)"],
    ["Why does that happen?", "Why does that happen? (about parse_config)"],
    ["what about the tests?", "what about the tests? (about parse_config)"],
  ])("rewrites %j", (question, standalone) => {
    expect(rewriteFollowUp(question, PARSE_CONFIG)).toEqual({ standalone, rewritten: true });
  });

  it("uses every code subject for plural references and the path for 'this file'", () => {
    expect(rewriteFollowUp("who calls them?", CODEC).standalone).toBe("who calls encode and decode?");
    expect(rewriteFollowUp("what else is in this file?", CODEC).standalone).toBe(
      "what else is in lib/codec.ts?",
    );
  });

  it.each([
    ["How does the indexer store symbols?"],
    ["How does parse_config handle it when the file is missing?"],
    ["Is it possible to configure the tokenizer?"],
    ["What should I use for caching?"],
    ["What are the architectural problems in the frontend code?"],
    ["Trace how a request flows from the API endpoint to the database"],
  ])("leaves the self-contained question %j unchanged", (question) => {
    expect(rewriteFollowUp(question, PARSE_CONFIG)).toEqual({ standalone: question, rewritten: false });
  });

  it("leaves questions alone when there is no history or no subject to use", () => {
    expect(rewriteFollowUp("who calls it?", [])).toEqual({ standalone: "who calls it?", rewritten: false });
    expect(
      rewriteFollowUp("who calls it?", [{ question: "How does this work?", subjects: [] }]).rewritten,
    ).toBe(false);
  });

  it("derives subjects from the previous question when none were recorded", () => {
    const history = [{ question: "What does `load_settings` in config/loader.py do?", subjects: [] }];
    expect(rewriteFollowUp("where is it used?", history).standalone).toBe("where is load_settings used?");
  });

  it("uses the most recent turn that had a subject", () => {
    const history: PriorTurn[] = [
      { question: "What does parse_config do?", subjects: ["parse_config"] },
      { question: "What does load_env do?", subjects: ["load_env"] },
      { question: "Thanks, that helps.", subjects: [] },
    ];
    expect(rewriteFollowUp("who calls it?", history).standalone).toBe("who calls load_env?");
  });
});
