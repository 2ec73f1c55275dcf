import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { getEnv } from "@/env";
import { baseAuthConfig, SIGN_IN_PATH } from "@/server/auth/config";

const { auth } = NextAuth(() => baseAuthConfig(getEnv().AUTH_SECRET));

/**
 * First gate of the dashboard: no session cookie → the login page; a merchant never reaches /dashboard/staff
 * and staff use the staff console. This is a convenience, not the protection: every layout and every tRPC
 * procedure checks the session again (against the database) on its own.
 */
export const proxy = auth((request) => {
  const { pathname, search } = request.nextUrl;
  const user = request.auth?.user;
  if (!user?.id) {
    const login = new URL(SIGN_IN_PATH, request.nextUrl);
    login.searchParams.set("callbackUrl", pathname + search);
    return NextResponse.redirect(login);
  }
  const staffArea = pathname === "/dashboard/staff" || pathname.startsWith("/dashboard/staff/");
  if (staffArea && user.role !== "staff") return NextResponse.redirect(new URL("/dashboard", request.nextUrl));
  if (!staffArea && user.role === "staff") return NextResponse.redirect(new URL("/dashboard/staff", request.nextUrl));
  return NextResponse.next();
});

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };
