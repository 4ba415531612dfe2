/** 404 of the source view: the path is not a file of this repository's index. */
import Link from "next/link";

export default function SourceNotFound() {
  return (
    <div className="card empty" data-testid="source-not-found">
      <h1>File not found in the index</h1>
      <p>Only files that were indexed in this repository can be shown.</p>
      <p className="muted">
        The path may be misspelled, the file may have been removed or skipped when indexing, or the link
        pointed outside the repository (paths like <code>../</code> or absolute paths are never opened).
      </p>
      <p>
        <Link href="/">Back to repositories</Link>
      </p>
    </div>
  );
}
