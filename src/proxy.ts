import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/env";
import { newId } from "@/lib/ids";
import { problemResponse, problemBody } from "@/server/http/problem";
import { SIGN_IN_PATH } from "@/server/auth/config";
import { audienceAccess, audienceHomeOf } from "@/server/auth/dashboard-routes";
import { viewAsMayOpen } from "@/server/auth/view-as";

/**
 * First gate of the dashboard, decided by the route table (auth/dashboard-routes.ts): no session cookie → the
 * login page; a path the role may not use → its own start page. A route handler a page fetches (upload, export)
 * is answered 401/403 instead: a redirect would hand it an HTML page. This is a convenience, not the protection:
 * the role in the cookie is as of the session's last check; every page (auth/page-guard.ts), route handler and
 * tRPC procedure checks the session and its role again, against the database, on its own. Staff also pass to the
 * merchant pages a "view as merchant" grant opens (auth/view-as.ts): whether this session holds one is on its row,
 * not in the cookie, so the merchant layout and the page's guard decide (without one, staff go to their console).
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const protocol = request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(":", "");
  const token = await getToken({ req: request, secret: getEnv().AUTH_SECRET, secureCookie: protocol === "https" });
  // The audience only ("merchant" | "staff"): the role in the cookie may be stale (a role change, a switch of
  // merchant), and the page's own guard decides with the live one.
  const audience = token?.uid && token.role ? token.role : null;
  if (audience === "staff" && viewAsMayOpen(pathname)) return NextResponse.next();
  const access = audienceAccess(audience, pathname);
  if (access.outcome === "allowed") return NextResponse.next();
  if (access.kind === "endpoint") {
    const problem =
      access.outcome === "sign_in"
        ? problemBody("unauthenticated", "Sign in to the dashboard first.", newId("request"))
        : problemBody("forbidden", "Your role may not use this.", newId("request"));
    return problemResponse(problem);
  }
  if (access.outcome === "forbidden") return NextResponse.redirect(new URL(audienceHomeOf(audience!), request.nextUrl));
  const login = new URL(SIGN_IN_PATH, request.nextUrl);
  login.searchParams.set("callbackUrl", pathname + search);
  return NextResponse.redirect(login);
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };
