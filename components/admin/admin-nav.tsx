"use client";
/** The admin section's tabs and the sign-out button (which also drops cached admin data). */
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";

const TABS = [
  { href: "/admin", label: "Dashboard" },
  { href: "/admin/settings", label: "Settings" },
  { href: "/admin/golden", label: "Golden questions" },
  { href: "/admin/sources", label: "Sources" },
  { href: "/admin/files", label: "Files" },
  { href: "/admin/secrets", label: "Secrets" },
];

export function AdminNav({ actor }: { actor: string }) {
  const pathname = usePathname();
  const router = useRouter();
  const queryClient = useQueryClient();
  const signOut = async () => {
    await fetch("/api/admin/logout", { method: "POST" }).catch(() => undefined);
    queryClient.removeQueries({ queryKey: ["admin"] });
    router.replace("/admin/login");
    router.refresh();
  };
  return (
    <div className="admin-nav">
      <nav aria-label="Admin" className="admin-tabs">
        {TABS.map((t) => (
          <Link
            key={t.href}
            href={t.href}
            aria-current={pathname === t.href ? "page" : undefined}
            data-testid={`admin-tab-${t.label.toLowerCase().replace(/ /g, "-")}`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      <div className="admin-user small">
        <span className="muted" data-testid="admin-actor">
          Signed in as {actor}
        </span>
        <button
          type="button"
          className="button secondary"
          onClick={() => void signOut()}
          data-testid="admin-sign-out"
        >
          Sign out
        </button>
      </div>
    </div>
  );
}
