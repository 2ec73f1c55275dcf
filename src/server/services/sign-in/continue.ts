import { requireSelf, type ServiceContext } from "../context";
import { createChallenge } from "./challenges";

/**
 * A sign-in that needs no further step, for the signed-in user who has just proven their password inside their
 * session (a password change ends every session, that one included, and signs the tab in again). Only code on
 * the server calls it, right after that proof; the token completes like a password step's.
 */
export async function continueSignIn({ ctx }: { ctx: ServiceContext }): Promise<{ token: string }> {
  const { userId } = requireSelf(ctx);
  const { token } = await createChallenge(ctx, { purpose: "sign_in", userId, needs: "nothing" });
  return { token };
}
