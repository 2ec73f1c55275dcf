import { eq } from "drizzle-orm";
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON, type WebAuthnCredential } from "@simplewebauthn/server";
import { passkeys } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { relyingParty } from "./webauthn";

/**
 * Options for `navigator.credentials.get`: the user's own passkeys when the user is known (a second step after the
 * password), or any passkey of this site (signing in with a passkey alone, which then must verify the person:
 * user verification required, so the passkey is two factors by itself).
 */
export async function passkeyRequestOptions(ctx: ServiceContext, userId: string | null) {
  const rp = relyingParty(ctx.env);
  const allowCredentials = userId
    ? (await ctx.db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId))).map(
        (key) => ({ id: key.id, transports: key.transports as WebAuthnCredential["transports"] }),
      )
    : undefined;
  return generateAuthenticationOptions({ rpID: rp.rpID, allowCredentials, userVerification: userId ? "preferred" : "required" });
}

/**
 * Verifies a browser's passkey answer to `expectedChallenge`. Returns the id of the user whose passkey signed it
 * (and records its use), or null: unknown passkey, another user's (when `userId` is given), a bad signature, a
 * signature counter gone backwards (a cloned authenticator), or no user verification when it was required.
 */
export async function verifyPasskeyAnswer(
  ctx: ServiceContext,
  input: { response: unknown; expectedChallenge: string; userId: string | null },
): Promise<string | null> {
  const response = input.response as AuthenticationResponseJSON;
  if (typeof response?.id !== "string" || response.id.length > 1024) return null;
  const [key] = await ctx.db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).limit(1);
  if (!key || (input.userId !== null && key.userId !== input.userId)) return null;
  const rp = relyingParty(ctx.env);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: input.expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: { id: key.credentialId, publicKey: Buffer.from(key.publicKey, "base64url"), counter: key.counter, transports: key.transports as WebAuthnCredential["transports"] },
    requireUserVerification: input.userId === null,
  }).catch(() => null);
  if (!verification?.verified) return null;
  await ctx.db.update(passkeys).set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: ctx.now() }).where(eq(passkeys.id, key.id));
  return key.userId;
}
