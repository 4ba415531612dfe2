/**
 * The diagnostic context's lead order: the ranked leads first, with the symbol holding
 * the quoted message kept among what the answer's body cites.
 */
import { describe, expect, it } from "vitest";
import { answerInput, symbolItem as symbol } from "../../../test-support/answer-input.ts";
import { EvidenceEngine } from "../../answerers/evidence-engine.ts";
import type { ContextItem } from "../../answerers/contract.ts";
import { leadOrder, type MessagePlace } from "./diagnostic-leads.ts";

const QUESTION = "RuntimeError: Working outside of application context. I get this in a thread. Why?";

// The message is written in a module constant; the packing narrowed the module's lines to
// the function below it, which signals ranked first.
const holder = symbol(
  "__getattr__",
  "app/globals.py",
  'def __getattr__(name):\n    if name == "_stack":\n        return _stack\n    raise AttributeError(name)',
  30,
);
const messagePlace: MessagePlace = { path: "app/globals.py", startLine: 1, endLine: 33 };
const leads = ["copy_context", "app_context", "has_context", "shell", "wsgi_app"].map((name, n) =>
  symbol(name, `app/m${n}.py`, `def ${name}():\n    return ${n}`, 10),
);
const ids = leads.map((l) => l.key);
const names = (items: ContextItem[]) => items.map((i) => i.facts?.qualifiedName);

describe("the diagnostic context in lead order", () => {
  it("keeps the message's holder right after the first three leads, ahead of the fourth and fifth", () => {
    const ordered = leadOrder([holder, ...leads], ids, [messagePlace]);
    expect(names(ordered)).toEqual([
      "copy_context",
      "app_context",
      "has_context",
      "__getattr__",
      "shell",
      "wsgi_app",
    ]);
    const scores = ordered.map((i) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[3]).toBeGreaterThan(scores[4] ?? Infinity);
  });

  it("moves a holder ranked fifth among the leads up to fourth", () => {
    const ordered = leadOrder(leads, ids, [{ path: "app/m4.py", startLine: 10, endLine: 11 }]);
    expect(names(ordered).slice(0, 4)).toEqual(["copy_context", "app_context", "has_context", "wsgi_app"]);
  });

  it("leaves the lead order alone when one of the first three leads holds the message", () => {
    const ordered = leadOrder([holder, ...leads], ids, [
      messagePlace,
      { path: "app/m1.py", startLine: 1, endLine: 99 },
    ]);
    expect(names(ordered)).toEqual([
      "copy_context",
      "app_context",
      "has_context",
      "shell",
      "wsgi_app",
      "__getattr__",
    ]);
  });

  it("moves nothing for lines of another file or other lines of the holder's file", () => {
    const elsewhere = [
      { path: "app/other.py", startLine: 1, endLine: 99 },
      { path: "app/globals.py", startLine: 40, endLine: 60 },
    ];
    expect(names(leadOrder([holder, ...leads], ids, elsewhere)).at(-1)).toBe("__getattr__");
  });

  it("has the answer's body cite the holder's file", async () => {
    const context = leadOrder([holder, ...leads], ids, [messagePlace]);
    const { answer } = await new EvidenceEngine().answer(
      answerInput(QUESTION, "diagnostic", context),
      () => {},
    );
    expect(answer).toContain("app/globals.py:30-33");
    const without = leadOrder([holder, ...leads], ids, []);
    const { answer: plain } = await new EvidenceEngine().answer(
      answerInput(QUESTION, "diagnostic", without),
      () => {},
    );
    expect(plain).not.toContain("app/globals.py");
  });
});
