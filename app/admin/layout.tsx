/** Admin section: its own styles (kept out of globals.css) and pages that are never cached or indexed. */
import type { Metadata } from "next";
import "./admin.css";

export const metadata: Metadata = { robots: { index: false, follow: false } };

export default function AdminLayout({ children }: { children: React.ReactNode }) {
  return children;
}
