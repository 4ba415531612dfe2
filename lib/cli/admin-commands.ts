/**
 * `admin-token`: prints the admin token (generating and storing it on first use) so
 * an operator who missed the server's first-start line can still sign in.
 */
import { ensureAdminToken } from "../auth/admin-token.ts";
import type { Command } from "./context.ts";

export const adminTokenCommand: Command = async (ctx) => {
  const admin = ensureAdminToken();
  if (admin.source === "env") {
    // The operator set it; echoing a secret they already have only spreads it.
    ctx.out.write("ADMIN_TOKEN is set in the environment; sign in at /admin/login with that value.\n");
    return 0;
  }
  if (ctx.values.json) {
    ctx.out.write(`${JSON.stringify({ token: admin.token, file: admin.file, created: admin.created })}\n`);
    return 0;
  }
  ctx.out.write(`${admin.token}\n`);
  ctx.err.write(
    `${admin.created ? "Generated and stored" : "Stored"} in ${admin.file} (mode 0600). ` +
      "Sign in at /admin/login. A server started with ADMIN_TOKEN set uses that instead.\n",
  );
  return 0;
};
