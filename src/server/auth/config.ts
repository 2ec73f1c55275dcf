import type { NextAuthConfig } from "next-auth";
import { SESSION_LIFETIME_MS } from "@/server/services/sessions/schemas";

export const SIGN_IN_PATH = "/login";

/**
 * The next-auth settings shared by the proxy (which only reads the session cookie) and the full server
 * configuration in `auth.ts` (which adds the credentials provider and checks each session against the
 * database). JWT sessions in an encrypted, httpOnly, SameSite=Lax cookie.
 */
export function baseAuthConfig(secret: string, onError: (error: Error) => void = () => {}): NextAuthConfig {
  return {
    secret,
    // Behind the operator's proxy the host header is the public one; without this every route is a 500.
    trustHost: true,
    // The cookie lives as long as its session row (services/sessions), which can also end sooner.
    session: { strategy: "jwt", maxAge: SESSION_LIFETIME_MS / 1000 },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    providers: [],
    logger: {
      // next-auth logs a failed credentials check as an error with its stack: it is an expected outcome.
      error(error) {
        if (error.name !== "CredentialsSignin") onError(error);
      },
    },
    callbacks: {
      session({ session, token }) {
        return {
          ...session,
          user: {
            id: token.uid ?? "",
            email: token.email ?? "",
            role: token.role ?? "merchant",
            merchantId: token.merchantId ?? null,
            // Set by every check of the session (auth.ts); the narrowest role otherwise.
            access: token.access ?? (token.role === "staff" ? "staff:support" : "member:viewer"),
            sessionId: token.sid,
            viewAs: token.viewAs,
          },
        } as typeof session;
      },
    },
  };
}
