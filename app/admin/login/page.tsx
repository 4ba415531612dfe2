/** /admin/login: token sign-in; an already signed-in admin goes straight on. */
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/admin/login-form";
import { safeReturnPath } from "@/lib/auth/admin-page";
import { pageIdentity } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Admin sign-in" };

export default async function AdminLoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = safeReturnPath((await searchParams).next);
  const identity = await pageIdentity();
  if (identity?.role === "admin") redirect(next);
  return (
    <section className="admin-login narrow-block">
      <h1>Admin sign-in</h1>
      <p className="muted">Budgets, passes, provider, metrics and golden questions are for admins only.</p>
      <LoginForm next={next} />
    </section>
  );
}
