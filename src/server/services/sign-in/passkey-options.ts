import { z } from "zod";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { passkeyRequestOptions } from "../second-factors/verify-passkey";
import { validateInput } from "../validate";
import { createChallenge, findLiveChallenge, updateChallenge } from "./challenges";

/** "Sign in with a passkey": options for any passkey of this site, and the token of the challenge they answer. */
export async function startPasskeySignIn({ ctx }: { ctx: ServiceContext }) {
  const options = await passkeyRequestOptions(ctx, null);
  const { token } = await createChallenge(ctx, { purpose: "passkey_sign_in", webauthnChallenge: options.challenge });
  return { token, options };
}

const tokenInput = z.strictObject({ token: z.string().min(1).max(100) });

/** A passkey as the second step after the password: options for the user's own passkeys. */
export async function passkeyOptionsForSignIn({ ctx, input }: { ctx: ServiceContext; input: { token: string } }) {
  const { token } = validateInput(tokenInput, input);
  const challenge = await findLiveChallenge(ctx, token, "sign_in");
  if (!challenge?.userId || challenge.needs !== "second_factor") throw new ServiceError("sign_in_expired", "This sign-in expired. Sign in again.");
  const options = await passkeyRequestOptions(ctx, challenge.userId);
  await updateChallenge(ctx, challenge.id, { webauthnChallenge: options.challenge });
  return { options };
}
