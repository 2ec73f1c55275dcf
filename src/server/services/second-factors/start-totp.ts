import { and, eq, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import { totpFactors, users } from "@/server/db/schema";
import { requireSelf, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { newTotpSecret, totpUri } from "./totp-codes";
import { sealTotpSecret } from "./totp-secret";

/**
 * Starts setting up an authenticator app for the signed-in user: a new secret, sealed at rest, unconfirmed until
 * `confirmTotp` receives a code from the app. Returns the secret (for typing in), its `otpauth://` URI and that
 * URI as a QR code (SVG): shown while setting up, never again; starting again makes a new secret.
 */
export async function startTotpEnrolment({ ctx }: { ctx: ServiceContext }) {
  const { userId } = requireSelf(ctx);
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new ServiceError("unauthenticated", "Sign in first.");
  const secret = newTotpSecret();
  const sealed = sealTotpSecret(ctx, secret);
  // A confirmed authenticator is never overwritten here (the WHERE), even by a start racing its confirmation.
  const written = await ctx.db
    .insert(totpFactors)
    .values({ userId, secretSealed: sealed, createdAt: ctx.now() })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { secretSealed: sealed, createdAt: ctx.now(), lastUsedStep: null },
      setWhere: isNull(totpFactors.confirmedAt),
    })
    .returning({ userId: totpFactors.userId });
  if (written.length === 0) throw new ServiceError("second_factor_exists", "An authenticator app is already set up. Remove it first to set up another.");
  const uri = totpUri(secret, user.email);
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, uri, qrSvg };
}

/** True while the user has an authenticator set up but not yet confirmed. */
export async function hasPendingTotp(ctx: ServiceContext, userId: string): Promise<boolean> {
  const rows = await ctx.db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNull(totpFactors.confirmedAt)));
  return rows.length > 0;
}
