/**
 * The progress of one index build: a bar with files done / total and the phase.
 * Phases without a file count (resolving, embedding…) show a moving bar so a full
 * bar never pretends the build is over.
 */
import type { BuildView } from "@/lib/db/ui-queries";
import type { BuildPhase } from "@/lib/builds/types";

// Keyed by the build's own phase type, so a new phase fails the typecheck until labelled here.
const PHASE_LABEL: Record<BuildPhase | "queued", string> = {
  queued: "queued",
  fetching: "fetching from Git",
  discovering: "discovering files",
  parsing: "parsing and storing",
  resolving: "resolving calls",
  wiki: "writing wiki pages",
  embedding: "embedding",
  associations: "learning term associations",
  activating: "activating",
  done: "done",
};

export function IndexProgress({ build }: { build: BuildView }) {
  const finished = !build.live;
  const done = build.status === "ready" || build.status === "superseded" || build.phase === "done";
  const percent =
    build.filesTotal > 0 ? Math.round((build.filesDone / build.filesTotal) * 100) : done ? 100 : 0;
  const counting = build.live && (build.phase === "parsing" || build.phase === "discovering");
  const phase =
    build.status === "failed" ? "failed" : (PHASE_LABEL[build.phase as BuildPhase] ?? build.phase);
  return (
    <div
      className="progress"
      data-testid="index-progress"
      data-phase={build.phase}
      data-status={build.status}
    >
      <div className="progress-label small">
        <span data-testid="index-phase">
          {finished ? `Build ${build.number}: ` : "Indexing: "}
          {phase}
        </span>
        <span data-testid="index-files">
          {/* The total is known once the files are listed; until then there is nothing to count against. */}
          {build.live && build.filesTotal === 0
            ? "discovering"
            : `${build.filesDone.toLocaleString("en-US")} / ${build.filesTotal.toLocaleString("en-US")} files`}
        </span>
      </div>
      <div
        className={`progress-track${build.live && !counting ? " indeterminate" : ""}${build.status === "failed" ? " failed" : done ? " complete" : ""}`}
        role="progressbar"
        aria-label={`Index build ${build.number}: ${phase}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${phase}, ${build.filesDone} of ${build.filesTotal} files`}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
