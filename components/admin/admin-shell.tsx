/** The frame of every signed-in admin page: heading, tabs, who is signed in. */
import type { ReactNode } from "react";
import { AdminNav } from "./admin-nav";

export function AdminShell(props: { title: string; actor: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section className="admin-page" data-testid="admin-page">
      <header className="admin-header">
        <h1>
          <span className="muted admin-kicker">Admin · </span>
          {props.title}
        </h1>
        <AdminNav actor={props.actor} />
      </header>
      {props.intro ? <div className="admin-intro muted">{props.intro}</div> : null}
      {props.children}
    </section>
  );
}
