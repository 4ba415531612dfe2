/** Session storage on a real database (SQLite, or PostgreSQL under WAYFINDER_TEST_PG_URL). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { createRepository } from "./repositories.ts";
import { appendExchange, createSession, getSession, listMessages } from "./sessions.ts";

let t: TempEnv;
let repositoryId: string;

beforeAll(async () => {
  t = await setupTempEnv();
  repositoryId = (await createRepository({ name: "sessions", rootPath: t.makeDir("repo") })).id;
});

afterAll(async () => {
  await t.cleanup();
});

const message = (sessionId: string, role: string, id?: string) => ({
  id,
  sessionId,
  role,
  content: `${role} text`,
  parts: "[]",
  metadata: "{}",
  generationId: "g1",
});

describe("sessions", () => {
  it("refuses a session id from outside that is not an id, and stores nothing", async () => {
    for (const id of ["../../etc/passwd", "short", "a b c d e f g h", "x".repeat(65)]) {
      await expect(createSession({ id, repositoryId, generationId: "g1", title: "t" })).rejects.toMatchObject(
        {
          code: "bad_request:session",
        },
      );
    }
    const ok = await createSession({ id: "session-ok-1", repositoryId, generationId: "g1", title: "t" });
    expect((await getSession(ok.id))?.id).toBe("session-ok-1");
  });

  it("stores a question and its answer together", async () => {
    const session = await createSession({ repositoryId, generationId: "g1", title: "pair" });
    await appendExchange(message(session.id, "user"), message(session.id, "assistant"));
    expect((await listMessages(session.id)).map((m) => m.role).sort()).toEqual(["assistant", "user"]);
  });

  it("stores neither when the answer cannot be written", async () => {
    const session = await createSession({ repositoryId, generationId: "g1", title: "atomic" });
    // The answer reuses the question's id: its insert fails after the question's succeeded.
    const failing = appendExchange(
      message(session.id, "user", "dup-message-id"),
      message(session.id, "assistant", "dup-message-id"),
    );
    await expect(failing).rejects.toThrow();
    expect(await listMessages(session.id)).toEqual([]);
  });
});
