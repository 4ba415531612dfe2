/** /api/auth/*: OpenID Connect sign-in, callback, session and sign-out, handled by Auth.js (oidc mode only). */
import { handleAuthRequest } from "@/lib/auth/oidc";
import { apiRoute } from "../../api-route";

export const dynamic = "force-dynamic";

const handler = apiRoute<unknown, null>({ access: "public" }, async (request) => handleAuthRequest(request));

export { handler as GET, handler as POST };
