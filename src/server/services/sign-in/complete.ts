import { z } from "zod";
import { recordAudit } from "../audit/record";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { acceptTotpCode } from "../second-factors/accept-totp";
import { spendRecoveryCode } from "../second-factors/recovery-codes";
import { verifyPasskeyAnswer } from "../second-factors/verify-passkey";
import { failureThrottle } from "../users/login-throttle";
import type { SessionUser } from "../users/session-user";
import { validateInput } from "../validate";
import { consumeChallenge, findLiveChallenge, recordChallengeFailure } from "./challenges";
import { currentUser, finishSignIn, type SignInMethod } from "./finish";

export const completeSignInInput = z.strictObject({
  token: z.string().min(1).max(100),
  /** `password`: nothing more was needed (or an authenticator was just set up); else the second factor given. */
  method: z.enum(["password", "totp", "recovery_code", "passkey"]),
  code: z.string().max(40).optional(),
  response: z.unknown().optional(),
});
export type CompleteSignInInput = z.input<typeof completeSignInInput>;

const EXPIRED = "This sign-in expired. Sign in again.";
/** The detail of a replayed authenticator code: the sign-in page tells it apart from a wrong one. */
export const REPLAYED_CODE = "That code was already used. Wait for the next one.";

/**
 * The last step of a sign-in: the challenge `token` names (the password step's, or "sign in with a passkey") and,
 * when it needs one, the second factor. Returns the user the session is for; the caller creates the session. A
 * wrong factor counts against the challenge (five end it), the account and the address (FAILURE_LIMITS: blocks
 * that lift after 15 minutes), and is audit-logged (`user.second_factor_failed`); a replayed authenticator code is
 * refused like a wrong one.
 */
export async function completeSignIn({ ctx, input }: { ctx: ServiceContext; input: CompleteSignInInput }): Promise<SessionUser> {
  const { token, method, code, response } = validateInput(completeSignInInput, input);
  const address = (ctx.actor.type === "anonymous" && ctx.actor.ip) || "unknown";
  const throttle = failureThrottle("second_factor", ctx.env);

  const passwordStep = await findLiveChallenge(ctx, token, "sign_in");
  if (!passwordStep && method === "passkey") return completePasskeyOnly(ctx, token, response, address);
  if (!passwordStep?.userId) throw new ServiceError("sign_in_expired", EXPIRED);
  const userId = passwordStep.userId;

  if (passwordStep.needs === "enrolment") throw new ServiceError("second_factor_required", "Set up a second factor to finish signing in.");
  if (passwordStep.needs === "second_factor") {
    await throttle.check(userId, address);
    const outcome = await checkFactor(ctx, userId, method, code, response, passwordStep.webauthnChallenge);
    if (outcome !== "accepted") {
      await Promise.all([throttle.recordFailure(userId, address), recordChallengeFailure(ctx, passwordStep.id)]);
      await auditFailure(ctx, userId, { step: "second_factor", method, reason: outcome, ip: address });
      throw new ServiceError("invalid_second_factor", outcome === "replayed" ? REPLAYED_CODE : "That code is not right.");
    }
    await throttle.recordSuccess(userId);
  }
  if (!(await consumeChallenge(ctx, passwordStep.id))) throw new ServiceError("sign_in_expired", EXPIRED);
  return finishSignIn(ctx, userId, passwordStep.needs === "nothing" ? "password" : method);
}

type Outcome = "accepted" | "wrong" | "replayed";

async function checkFactor(
  ctx: ServiceContext,
  userId: string,
  method: SignInMethod,
  code: string | undefined,
  response: unknown,
  webauthnChallenge: string | null,
): Promise<Outcome> {
  switch (method) {
    case "totp":
      return code ? acceptTotpCode(ctx, userId, code) : "wrong";
    case "recovery_code":
      if (!code || !(await spendRecoveryCode(ctx, userId, code))) return "wrong";
      await auditFor(ctx, userId, "user.recovery_code_used", {});
      return "accepted";
    case "passkey":
      if (!webauthnChallenge) return "wrong";
      return (await verifyPasskeyAnswer(ctx, { response, expectedChallenge: webauthnChallenge, userId })) ? "accepted" : "wrong";
    default:
      return "wrong";
  }
}

/** "Sign in with a passkey": the passkey names the user and, verifying them, is both factors. */
async function completePasskeyOnly(ctx: ServiceContext, token: string, response: unknown, address: string): Promise<SessionUser> {
  const throttle = failureThrottle("second_factor", ctx.env);
  await throttle.check("address-only", address);
  const challenge = await findLiveChallenge(ctx, token, "passkey_sign_in");
  if (!challenge?.webauthnChallenge) throw new ServiceError("sign_in_expired", EXPIRED);
  const userId = await verifyPasskeyAnswer(ctx, { response, expectedChallenge: challenge.webauthnChallenge, userId: null });
  if (!userId) {
    await Promise.all([throttle.recordFailure(null, address), recordChallengeFailure(ctx, challenge.id)]);
    throw new ServiceError("invalid_second_factor", "That passkey was not accepted.");
  }
  if (!(await consumeChallenge(ctx, challenge.id))) throw new ServiceError("sign_in_expired", EXPIRED);
  return finishSignIn(ctx, userId, "passkey");
}

async function auditFailure(ctx: ServiceContext, userId: string, details: Record<string, unknown>) {
  await auditFor(ctx, userId, "user.second_factor_failed", details);
}

/** An audit row about a user from an anonymous step of the sign-in, in their merchant's log. */
async function auditFor(ctx: ServiceContext, userId: string, action: string, details: Record<string, unknown>) {
  const current = await currentUser(ctx, userId);
  await recordAudit({ ctx, input: { action, targetType: "user", targetId: userId, merchantId: current?.user.merchantId ?? null, details } });
}
