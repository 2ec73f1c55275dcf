import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getEnv } from "@/env";
import { newId } from "@/lib/ids";
import { clientIp } from "@/server/net/client-ip";
import { fromHeaders } from "@/server/net/request-client";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { createSession } from "@/server/services/sessions/create";
import { revokeSession } from "@/server/services/sessions/revoke";
import { completeSignIn, REPLAYED_CODE, type CompleteSignInInput } from "@/server/services/sign-in/complete";
import { baseAuthConfig } from "./config";
import { actorOfSession } from "@/server/services/users/session-user";
import { forgetSessions, lookUpSession } from "./session-lookup";

/** Thrown from `authorize` so the login form can say "too many attempts" rather than "wrong password". */
export class TooManyAttempts extends CredentialsSignin {
  override code = "rate_limited";
}
export class AccountSuspended extends CredentialsSignin {
  override code = "suspended";
}
export class SignInExpired extends CredentialsSignin {
  override code = "sign_in_expired";
}
/** The code says which wrong: not right, or already used (a replay). */
export class WrongSecondFactor extends CredentialsSignin {
  constructor(detail: string) {
    super(detail);
    this.code = detail === REPLAYED_CODE ? "second_factor_replayed" : "invalid_second_factor";
  }
}

/** The credentials form fields as the sign-in's last step reads them (`response`: a passkey answer, as JSON). */
function signInCredentials(credentials: Partial<Record<string, unknown>>): CompleteSignInInput {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const method = text(credentials.method);
  let response: unknown;
  try {
    response = credentials.response ? JSON.parse(text(credentials.response)) : undefined;
  } catch {
    response = undefined;
  }
  return {
    token: text(credentials.token),
    method: (["password", "totp", "recovery_code", "passkey"].includes(method) ? method : "password") as CompleteSignInInput["method"],
    code: text(credentials.code) || undefined,
    response,
  };
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
        // What the last step of a sign-in hands over (services/sign-in/complete.ts): the challenge token the
        // earlier steps made, and the second factor if one is needed. The password never passes here.
        credentials: { token: {}, method: {}, code: {}, response: {} },
        async authorize(credentials, request) {
          const runtime = await getRuntime();
          const ip = clientIp(request, runtime.env.TRUSTED_PROXY_HOPS);
          const client = fromHeaders(request.headers, ip);
          const ctx = createServiceContext(runtime, { type: "anonymous", ip }, newId("request"), client);
          try {
            const user = await completeSignIn({ ctx, input: signInCredentials(credentials) });
            // The server-side session the cookie will name (docs/dashboard.md, "Sessions").
            const session = await createSession({
              ctx: createServiceContext(runtime, actorOfSession(user), ctx.requestId, client),
              input: { ip, userAgent: request.headers.get("user-agent") },
            });
            return { ...user, sessionId: session.id };
          } catch (error) {
            if (error instanceof RateLimitedError) throw new TooManyAttempts();
            if (isServiceError(error) && error.code === "forbidden") throw new AccountSuspended();
            if (isServiceError(error) && error.code === "sign_in_expired") throw new SignInExpired();
            if (isServiceError(error) && error.code === "invalid_second_factor") throw new WrongSecondFactor(error.detail);
            if (isServiceError(error)) return null;
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      ...base.callbacks,
      /**
       * On sign-in, keep who it is and which session; on every later use, check that session is still live
       * (not signed out, no password change since, its user and merchant still there), through the per-process
       * cache (session-lookup.ts). Null ends the session: next-auth clears the cookie.
       */
      async jwt({ token, user }) {
        if (user) {
          return { ...token, uid: user.id, sid: user.sessionId, email: user.email, role: user.role, merchantId: user.merchantId, access: user.access };
        }
        if (!token.uid || !token.sid) return null;
        const current = await lookUpSession(await getRuntime(), token.sid);
        if (!current || current.user.id !== token.uid) return null;
        // The role and the merchant as the session row and membership say now (a switch, a role change), and a
        // staff session's view-as grant.
        return { ...token, email: current.user.email, role: current.user.role, merchantId: current.user.merchantId, access: current.user.access, viewAs: current.user.viewAs };
      },
    },
    events: {
      /** Signing out ends the server-side session, so a copy of the cookie is refused from then on. */
      async signOut(message) {
        const token = "token" in message ? message.token : null;
        if (!token?.uid || !token.sid || !token.role) return;
        const runtime = await getRuntime();
        const access = token.access ?? (token.role === "staff" ? "staff:support" : "member:viewer");
        const actor = actorOfSession({ id: token.uid, email: token.email ?? "", role: token.role, merchantId: token.merchantId ?? null, access, sessionId: token.sid });
        await revokeSession({ ctx: createServiceContext(runtime, actor, newId("request")), input: { id: token.sid, reason: "signed_out" } });
        forgetSessions(runtime, { sessionId: token.sid });
      },
    },
  };
});
