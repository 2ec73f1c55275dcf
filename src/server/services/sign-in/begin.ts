import type { SignInNeeds } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { hasSecondFactor, secondFactorState } from "../second-factors/policy";
import { authenticateUser } from "../users/authenticate";
import type { LoginInput } from "../users/schemas";
import { createChallenge } from "./challenges";

/**
 * The password step of a dashboard sign-in (docs/team-and-security.md, "Signing in"). On the right password it
 * makes a sign-in challenge whose token the browser keeps for the next step, and says what that step is:
 * `nothing` (no second factor: the session can start), `second_factor` (a code, a recovery code or a passkey,
 * `methods` says which), or `enrolment` (a second factor is required of this user and they have none: they set up
 * an authenticator app before their session starts).
 */
export async function beginSignIn({ ctx, input }: { ctx: ServiceContext; input: LoginInput }) {
  const { user } = await authenticateUser({ ctx, input });
  const state = await secondFactorState(ctx, user.id);
  const needs: SignInNeeds = hasSecondFactor(state) ? "second_factor" : state.requiredBy ? "enrolment" : "nothing";
  const { token } = await createChallenge(ctx, { purpose: "sign_in", userId: user.id, needs });
  return {
    token,
    needs,
    methods: { totp: state.totp, recoveryCode: state.recoveryCodesLeft > 0, passkey: state.passkeys > 0 },
    requiredBy: state.requiredBy,
  };
}
