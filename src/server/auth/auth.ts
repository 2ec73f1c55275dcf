import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getEnv } from "@/env";
import { newId } from "@/lib/ids";
import { clientIp } from "@/server/net/client-ip";
import { getRuntime } from "@/server/runtime";
import type { Actor } from "@/server/services/context";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { authenticateUser } from "@/server/services/users/authenticate";
import { resolveSessionUser } from "@/server/services/users/resolve-session";
import { baseAuthConfig } from "./config";

/** Thrown from `authorize` so the login form can say "too many attempts" rather than "wrong password". */
export class TooManyAttempts extends CredentialsSignin {
  override code = "rate_limited";
}
export class AccountSuspended extends CredentialsSignin {
  override code = "suspended";
}

async function serviceContext(actor: Actor) {
  const runtime = await getRuntime();
  return createServiceContext(runtime, actor, newId("request"));
}

// Configured lazily (per request): `next build` imports this module without a runtime environment.
export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const base = baseAuthConfig(getEnv().AUTH_SECRET, (error) => {
    // Name and message only: the cause of a failed sign-in may hold what was typed.
    void getRuntime().then((runtime) => runtime.log.warn({ error: error.name, detail: error.message }, "auth error"));
  });
  return {
    ...base,
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          const runtime = await getRuntime();
          const ip = clientIp(request, runtime.env.TRUSTED_PROXY_HOPS);
          const ctx = createServiceContext(runtime, { type: "anonymous", ip }, newId("request"));
          try {
            const { user, stamp } = await authenticateUser({
              ctx,
              input: { email: String(credentials.email ?? ""), password: String(credentials.password ?? "") },
            });
            return { ...user, stamp };
          } catch (error) {
            if (error instanceof RateLimitedError) throw new TooManyAttempts();
            if (isServiceError(error) && error.code === "forbidden") throw new AccountSuspended();
            if (isServiceError(error)) return null;
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      ...base.callbacks,
      /** On sign-in, keep who it is; on every later use, check the user still exists with the same password. */
      async jwt({ token, user }) {
        if (user) {
          return { ...token, uid: user.id, email: user.email, role: user.role, merchantId: user.merchantId, stamp: user.stamp };
        }
        if (!token.uid || !token.stamp) return null;
        const ctx = await serviceContext({ type: "system" });
        const current = await resolveSessionUser({ ctx, input: { userId: token.uid, stamp: token.stamp } });
        if (!current) return null;
        return { ...token, email: current.email, role: current.role, merchantId: current.merchantId };
      },
    },
  };
});
