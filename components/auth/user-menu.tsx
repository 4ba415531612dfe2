"use client";
/** Who is signed in, and signing out (the team cookie, the admin cookie and the OIDC session alike). */
import { useState } from "react";
import { oidcSignOut } from "./auth-client";

export interface SignedInUser {
  actor: string;
  role: "reader" | "admin";
  via: "access-cookie" | "admin-cookie" | "oidc";
}

export function UserMenu({ user }: { user: SignedInUser }) {
  const [pending, setPending] = useState(false);
  const signOut = async () => {
    setPending(true);
    try {
      if (user.via === "oidc") await oidcSignOut();
      await fetch("/api/access/logout", { method: "POST" });
      await fetch("/api/admin/logout", { method: "POST" });
    } finally {
      window.location.assign("/login");
    }
  };
  return (
    <span className="user-menu small" data-testid="user-menu">
      <span data-testid="user-name">{user.actor}</span>
      {user.role === "admin" ? <span className="badge">admin</span> : null}
      <button
        type="button"
        className="link-button"
        onClick={signOut}
        disabled={pending}
        data-testid="sign-out"
      >
        Sign out
      </button>
    </span>
  );
}
