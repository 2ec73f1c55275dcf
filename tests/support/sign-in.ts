import type { Runtime } from "../../src/server/runtime";
import { beginSignIn } from "../../src/server/services/sign-in/begin";
import { completeSignIn, type CompleteSignInInput } from "../../src/server/services/sign-in/complete";
import { createSession } from "../../src/server/services/sessions/create";
import { actorOfSession } from "../../src/server/services/users/session-user";
import { serviceContext, testIp } from "./users";

/** The password step as the sign-in form runs it, from a client address (fresh per call unless given). */
export function beginAs(runtime: Runtime, email: string, password: string, ip = testIp()) {
  return beginSignIn({ ctx: serviceContext(runtime, { type: "anonymous", ip }), input: { email, password } });
}

/** The last step as next-auth's `authorize` runs it (auth.ts). */
export function completeAs(runtime: Runtime, input: CompleteSignInInput, ip = testIp()) {
  return completeSignIn({ ctx: serviceContext(runtime, { type: "anonymous", ip }), input });
}

/**
 * A whole sign-in of a user without a second factor, as the dashboard makes it: the password, the challenge
 * completed, a session row. Returns the user, the session id and the actor the dashboard's procedures would use.
 */
export async function signInWithPassword(runtime: Runtime, email: string, password: string, device = { ip: "192.0.2.1", userAgent: "Mozilla/5.0 (test)" }) {
  const begun = await beginAs(runtime, email, password);
  if (begun.needs !== "nothing") throw new Error(`this sign-in needs ${begun.needs}`);
  const user = await completeAs(runtime, { token: begun.token, method: "password" });
  const session = await createSession({ ctx: serviceContext(runtime, actorOfSession(user)), input: device });
  return { user: { ...user, sessionId: session.id }, sessionId: session.id, actor: actorOfSession({ ...user, sessionId: session.id }) };
}
