/** 404 of a repository page: the id in the link is not a known repository. */
import Link from "next/link";

export default function RepositoryNotFound() {
  return (
    <div className="card empty" data-testid="repo-not-found">
      <h1>Repository not found</h1>
      <p className="muted">No repository has this id. It may have been removed, or the link is incomplete.</p>
      <p>
        <Link href="/">See all repositories</Link>
      </p>
    </div>
  );
}
