import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/env";
import { SIGN_IN_PATH } from "@/server/auth/config";

/**
 * First gate of the dashboard: no valid session cookie → the login page; a merchant never reaches
 * /dashboard/staff and staff use the staff console. This is a convenience, not the protection: every
 * layout and every tRPC procedure checks the session again, against the database, on its own.
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const protocol = request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(":", "");
  const token = await getToken({ req: request, secret: getEnv().AUTH_SECRET, secureCookie: protocol === "https" });
  if (!token?.uid) {
    const login = new URL(SIGN_IN_PATH, request.nextUrl);
    login.searchParams.set("callbackUrl", pathname + search);
    return NextResponse.redirect(login);
  }
  const staffArea = pathname === "/dashboard/staff" || pathname.startsWith("/dashboard/staff/");
  if (staffArea && token.role !== "staff") return NextResponse.redirect(new URL("/dashboard", request.nextUrl));
  if (!staffArea && token.role === "staff") return NextResponse.redirect(new URL("/dashboard/staff", request.nextUrl));
  return NextResponse.next();
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };
