/** The app-wide 404 page. */
import Link from "next/link";

export default function NotFound() {
  return (
    <div className="card empty" data-testid="not-found">
      <h1>Page not found</h1>
      <p className="muted">There is nothing at this address.</p>
      <p>
        <Link href="/">Go to the repositories</Link>
      </p>
    </div>
  );
}
