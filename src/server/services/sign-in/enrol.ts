import { z } from "zod";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { confirmTotp } from "../second-factors/confirm-totp";
import { startTotpEnrolment } from "../second-factors/start-totp";
import { validateInput } from "../validate";
import { findLiveChallenge, updateChallenge } from "./challenges";
import { actorOfUser, currentUser } from "./finish";

const tokenInput = z.strictObject({ token: z.string().min(1).max(100) });
const confirmInput = tokenInput.extend({ code: z.string().trim().min(1, "is required").max(20) });

/**
 * A user who must have a second factor and has none sets up an authenticator app in the middle of signing in
 * (their password proven, no session yet): these run the account's own verbs for the user the sign-in challenge
 * names. Confirming moves the challenge to `nothing`, so completing the sign-in needs no further factor.
 */
async function enrollingUser(ctx: ServiceContext, token: string) {
  const challenge = await findLiveChallenge(ctx, token, "sign_in");
  if (!challenge?.userId || challenge.needs !== "enrolment") throw new ServiceError("sign_in_expired", "This sign-in expired. Sign in again.");
  const current = await currentUser(ctx, challenge.userId);
  if (!current) throw new ServiceError("sign_in_expired", "This sign-in expired. Sign in again.");
  return { challenge, asUser: { ...ctx, actor: actorOfUser(current.user) } satisfies ServiceContext };
}

export async function startEnrolmentAtSignIn({ ctx, input }: { ctx: ServiceContext; input: { token: string } }) {
  const { token } = validateInput(tokenInput, input);
  const { asUser } = await enrollingUser(ctx, token);
  return startTotpEnrolment({ ctx: asUser });
}

export async function confirmEnrolmentAtSignIn({ ctx, input }: { ctx: ServiceContext; input: { token: string; code: string } }) {
  const { token, code } = validateInput(confirmInput, input);
  const { challenge, asUser } = await enrollingUser(ctx, token);
  const { recoveryCodes } = await confirmTotp({ ctx: asUser, input: { code } });
  await updateChallenge(ctx, challenge.id, { needs: "nothing" });
  return { recoveryCodes };
}
