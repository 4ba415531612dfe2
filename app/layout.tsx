import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { UserMenu } from "@/components/auth/user-menu";
import { Providers } from "@/components/providers";
import { pageIdentity } from "@/lib/auth/page";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Wayfinder", template: "%s · Wayfinder" },
  description: "Ask questions about your codebase and get answers with verified citations.",
  // public/: favicon.ico for browsers that ask for it whatever the page says, the SVG for the rest.
  icons: {
    icon: [
      { url: "/icon.svg", type: "image/svg+xml" },
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
    ],
    apple: "/apple-touch-icon.png",
  },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Reading the request makes every page dynamic, as the per-request CSP nonce needs (proxy.ts).
  const identity = await pageIdentity();
  const via = identity?.via;
  const user =
    identity && (via === "access-cookie" || via === "admin-cookie" || via === "oidc")
      ? { actor: identity.actor, role: identity.role, via }
      : null;
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#content">
          Skip to content
        </a>
        <header className="topbar">
          <Link href="/" className="brand" aria-label="Wayfinder home">
            <span className="brand-mark" aria-hidden>
              ◆
            </span>
            Wayfinder
          </Link>
          <nav aria-label="Main">
            <Link href="/">Repositories</Link>
            <Link href="/admin">Admin</Link>
          </nav>
          {user ? <UserMenu user={user} /> : null}
        </header>
        <main className="page" id="content">
          <Providers>{children}</Providers>
        </main>
      </body>
    </html>
  );
}
