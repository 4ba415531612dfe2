/**
 * Notices the engine streams with an answer, e.g. that the configured model failed
 * and the offline evidence engine answered instead. Warnings and errors are alerts;
 * informational notices are polite status messages.
 */
import type { NoticePart } from "@/lib/qa/types";

export function NoticeBanner({ notice }: { notice: NoticePart }) {
  return (
    <div
      className={`notice notice-${notice.level}`}
      role={notice.level === "info" ? "status" : "alert"}
      data-testid="notice"
      data-code={notice.code}
    >
      <strong className="notice-title">
        {notice.code.startsWith("provider") || notice.code.includes("fallback")
          ? "Provider fallback"
          : "Notice"}
      </strong>{" "}
      {notice.message}
    </div>
  );
}
