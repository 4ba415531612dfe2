"use client";
/**
 * The live chat for one repository and session: useChat over POST /api/qa (the
 * session id is the chat id, so follow-ups continue the stored session), the
 * question form, the conversation, a screen-reader status line and the retry after
 * an interrupted stream. Filling an answer's gaps regenerates that answer with the
 * user's gap answers: the server continues it from that pass.
 */
import { useChat } from "@ai-sdk/react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { WayfinderUIMessage } from "@/lib/qa/types";
import { createChatTransport, StreamInterruptedError } from "./chat-transport";
import { Conversation, type MessageExtras } from "./conversation";
import type { GapAnswerInput } from "./gap-fill-form";
import { activePassOf } from "./message-parts";
import { phaseLabel } from "./pass-timeline";
import { QuestionForm, type QuestionOptions } from "./question-form";
import { ShareButton } from "./share-button";
import { StreamError } from "./stream-error";

const EXAMPLES = [
  "How does the main workflow work?",
  "Why do I get an error when …?",
  "What happens when a request comes in?",
  "How are the modules connected?",
];

interface ChatProps {
  repositoryId: string;
  repositoryName: string;
  sessionId: string;
  initialMessages: WayfinderUIMessage[];
  /** server-rendered start of the toolbar (recent conversations) */
  toolbar?: ReactNode;
  /** text to start the question box with (`?ask=`) */
  initialDraft?: string;
  /** stored answers' snippets highlighted on the server, by message id */
  extras?: Record<string, MessageExtras>;
}

function requestBody(repositoryId: string, options: QuestionOptions) {
  return {
    repositoryId,
    options: { quality: options.quality, ...(options.mode === "auto" ? {} : { mode: options.mode }) },
  };
}

function statusText(status: string, last: WayfinderUIMessage | undefined): string {
  if (status === "submitted") return "Question sent, waiting for the first results…";
  if (status === "streaming") {
    const active = last?.role === "assistant" ? activePassOf(last) : null;
    return active ? `Pass ${active.pass}: ${phaseLabel(active)}` : "Writing the answer…";
  }
  if (status === "error") return "The answer stream failed.";
  return last?.role === "assistant" ? "Answer complete." : "";
}

export function Chat({
  repositoryId,
  repositoryName,
  sessionId,
  initialMessages,
  toolbar,
  initialDraft = "",
  extras,
}: ChatProps) {
  const router = useRouter();
  // Set when a response body ended without its end marker (see chat-transport.ts).
  const [interrupted, setInterrupted] = useState(false);
  const [transport] = useState(() => createChatTransport(() => setInterrupted(true)));
  const [draft, setDraft] = useState(initialDraft);
  const lastOptions = useRef<QuestionOptions>({ quality: "balanced", mode: "auto" });
  const rootRef = useRef<HTMLDivElement>(null);
  // The conversation before an answer is continued: regenerating removes the answer at
  // once, so a continuation the server refuses puts it back.
  const beforeContinuing = useRef<WayfinderUIMessage[] | null>(null);
  const { messages, sendMessage, regenerate, stop, status, error, setMessages } = useChat<WayfinderUIMessage>(
    {
      id: sessionId,
      messages: initialMessages,
      transport,
      // Refresh server-rendered parts (the recent sessions list) once the session exists. A
      // question that failed may have stored nothing: refreshing would then render the page for
      // a session id that does not exist, in place of the error and its retry.
      onFinish: ({ isError, isDisconnect, isAbort }) => {
        beforeContinuing.current = null;
        if (!isError && !isDisconnect && !isAbort) router.refresh();
      },
      onError: () => {
        const before = beforeContinuing.current;
        beforeContinuing.current = null;
        if (before && !messagesRef.current.some((m) => m.role === "assistant" && m.id === before.at(-1)?.id))
          setMessages(before);
      },
    },
  );
  const messagesRef = useRef(messages);
  useEffect(() => {
    messagesRef.current = messages;
  }, [messages]);
  const busy = status === "submitted" || status === "streaming";
  const failure =
    status === "error" && error ? error : interrupted && !busy ? new StreamInterruptedError() : null;

  const ask = (question: string, options: QuestionOptions) => {
    lastOptions.current = options;
    setInterrupted(false);
    setDraft("");
    // The URL names the session from the first question on, so a reload continues it.
    const url = new URL(window.location.href);
    if (url.searchParams.get("session") !== sessionId) {
      url.searchParams.set("session", sessionId);
      window.history.replaceState(null, "", url);
    }
    void sendMessage({ text: question }, { body: requestBody(repositoryId, options) });
  };

  const continueAnswer = (answerId: string, gapAnswers: GapAnswerInput[]) => {
    setInterrupted(false);
    beforeContinuing.current = messages;
    void regenerate({
      messageId: answerId,
      body: { ...requestBody(repositoryId, lastOptions.current), gapAnswers },
    });
  };

  const retry = () => {
    setInterrupted(false);
    void regenerate({ body: requestBody(repositoryId, lastOptions.current) });
  };

  // Bring a newly asked question into view; later streaming does not move the page.
  const questionCount = messages.filter((m) => m.role === "user").length;
  useEffect(() => {
    if (questionCount > initialMessages.filter((m) => m.role === "user").length) {
      const questions = rootRef.current?.querySelectorAll('[data-testid="user-message"]');
      questions?.[questions.length - 1]?.scrollIntoView({ block: "start", behavior: "smooth" });
    }
  }, [questionCount, initialMessages]);

  return (
    <div className="chat" data-testid="chat" data-status={failure ? "error" : status} ref={rootRef}>
      <div className="chat-toolbar">
        <div className="chat-toolbar-start">{toolbar}</div>
        <ShareButton sessionId={sessionId} disabled={busy || !messages.some((m) => m.role === "assistant")} />
      </div>
      {messages.length === 0 ? (
        <div className="card chat-empty" data-testid="chat-empty">
          <h2>Ask a question about {repositoryName}</h2>
          <p className="muted">
            Answers cite the exact lines they rely on. Wayfinder names what it is missing, fetches it and
            improves the answer, pass by pass.
          </p>
          <ul className="examples">
            {EXAMPLES.map((example) => (
              <li key={example}>
                <button type="button" className="chip" onClick={() => setDraft(example)}>
                  {example}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <Conversation
          messages={messages}
          repositoryId={repositoryId}
          streaming={busy}
          extras={extras}
          onFillGaps={{ sessionId, continueAnswer }}
        />
      )}
      {failure ? <StreamError error={failure} onRetry={retry} /> : null}
      <div className="composer">
        <QuestionForm
          status={failure ? "The answer stream failed." : statusText(status, messages.at(-1))}
          repositoryName={repositoryName}
          autoFocus={initialMessages.length === 0}
          busy={busy}
          onAsk={ask}
          onStop={() => void stop()}
          draft={draft}
          onDraftChange={setDraft}
        />
      </div>
    </div>
  );
}
