import { eq } from "drizzle-orm";
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON, type WebAuthnCredential } from "@simplewebauthn/server";
import { z } from "zod";
import { newId } from "@/lib/ids";
import { passkeys, users } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { isUniqueViolation } from "@/server/db/errors";
import { recordAudit } from "../audit/record";
import { inTransaction, requireSelf, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { validateInput } from "../validate";
import { consumeChallenge, createChallenge, findLiveChallenge } from "../sign-in/challenges";
import { passkeyNameInput } from "./schemas";
import { relyingParty } from "./webauthn";

/** A user has at most this many passkeys: enough for every device, few enough to list. */
export const MAX_PASSKEYS = 20;

/**
 * Options for the browser's `navigator.credentials.create` (through @simplewebauthn/browser): a discoverable
 * credential (so it can also sign in without typing the email), the user's existing passkeys excluded. `token`
 * names the challenge in `finishPasskeyRegistration`.
 */
export async function startPasskeyRegistration({ ctx }: { ctx: ServiceContext }) {
  const { userId } = requireSelf(ctx);
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new ServiceError("unauthenticated", "Sign in first.");
  const existing = await ctx.db.select({ credentialId: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId));
  if (existing.length >= MAX_PASSKEYS) throw new ServiceError("validation_failed", `At most ${MAX_PASSKEYS} passkeys: remove one first.`);
  const rp = relyingParty(ctx.env);
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.email,
    userID: new TextEncoder().encode(userId),
    attestationType: "none",
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports as WebAuthnCredential["transports"] })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  const { token } = await createChallenge(ctx, { purpose: "passkey_registration", userId, webauthnChallenge: options.challenge });
  return { token, options };
}

export const finishPasskeyRegistrationInput = z.strictObject({
  token: z.string().min(1).max(100),
  name: passkeyNameInput,
  // The browser's answer, checked by @simplewebauthn/server; here only bounded in size.
  response: z.looseObject({ id: z.string().min(1).max(1024), type: z.literal("public-key") }).refine((value) => JSON.stringify(value).length <= 64_000, "is too large"),
});

/** Verifies the browser's answer to the challenge and stores the passkey; audited. */
export async function finishPasskeyRegistration({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof finishPasskeyRegistrationInput> }) {
  const { userId } = requireSelf(ctx);
  const { token, name, response } = validateInput(finishPasskeyRegistrationInput, input);
  const challenge = await findLiveChallenge(ctx, token, "passkey_registration");
  if (!challenge || challenge.userId !== userId || !challenge.webauthnChallenge || !(await consumeChallenge(ctx, challenge.id))) {
    throw new ServiceError("sign_in_expired", "This passkey set-up expired: start again.");
  }
  const rp = relyingParty(ctx.env);
  const verification = await verifyRegistrationResponse({
    response: response as unknown as RegistrationResponseJSON,
    expectedChallenge: challenge.webauthnChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) throw new ServiceError("invalid_second_factor", "The passkey could not be verified. Try again.");
  const { credential, credentialBackedUp } = verification.registrationInfo;
  try {
    return await withTransaction(ctx.db, async (tx) => {
      const row = {
        id: newId("passkey"),
        userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: credential.transports ?? [],
        backedUp: credentialBackedUp,
        name,
        createdAt: ctx.now(),
      };
      await tx.insert(passkeys).values(row);
      await recordAudit({ ctx: inTransaction(ctx, tx), input: { action: "user.passkey_added", targetType: "passkey", targetId: row.id } });
      return { id: row.id, name: row.name, createdAt: row.createdAt };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ServiceError("second_factor_exists", "This passkey is already registered.");
    throw error;
  }
}
