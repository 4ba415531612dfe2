/** 404 of a share link: unknown or mistyped share id. */
import Link from "next/link";

export default function ShareNotFound() {
  return (
    <div className="card empty" data-testid="share-not-found">
      <h1>Shared conversation not found</h1>
      <p className="muted">This share link is unknown. Check that it was copied completely.</p>
      <p>
        <Link href="/">Go to Wayfinder</Link>
      </p>
    </div>
  );
}
