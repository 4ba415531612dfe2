import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";

export const metadata: Metadata = {
  title: "Wayfinder",
  description: "Ask questions about your codebase and get answers with verified citations.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <Link href="/" className="brand" aria-label="Wayfinder home">
            <span className="brand-mark" aria-hidden>
              ◆
            </span>
            Wayfinder
          </Link>
          <nav aria-label="Main">
            <Link href="/">Repositories</Link>
          </nav>
        </header>
        <main className="page">{children}</main>
      </body>
    </html>
  );
}
