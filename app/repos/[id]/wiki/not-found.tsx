/** 404 of the wiki: no such repository, no index yet, or no page at this address. */
import Link from "next/link";

export default function WikiNotFound() {
  return (
    <div className="card empty" data-testid="wiki-not-found">
      <h1>Wiki page not found</h1>
      <p className="muted">
        There is no page at this address in the repository&apos;s current index. Pages exist for the
        repository, each folder and each source file; a file that was removed or renamed loses its page at the
        next index build.
      </p>
      <p>
        <Link href="/">Back to repositories</Link>
      </p>
    </div>
  );
}
