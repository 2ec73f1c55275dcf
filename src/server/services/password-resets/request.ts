import { and, eq, gt, isNull } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { digestToken, newOneTimeToken } from "@/server/crypto/one-time-token";
import { passwordResets, users } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, type ServiceContext } from "../context";
import { mailEnabled, sendMail } from "../email/send-mail";
import { ServiceError } from "../errors";
import { validateInput } from "../validate";
import { RESET_LINK_LIFETIME_MS, requestResetInput, resetLink } from "./schemas";

/**
 * "Forgot your password?": when the address has an account, makes a one-time link valid 30 minutes (only the
 * token's digest is stored; earlier unused links of the account stop working) and mails it. The answer is the
 * same whether or not the address has an account, and the mail is sent after the answer is decided, not
 * awaited by it, so neither the answer nor its timing says which addresses have accounts. The adapters limit how
 * often an address and a client may ask (auth/reset-limits.ts).
 *
 * `mail: "unavailable"` when the service sends no mail (no SMTP_URL): no link is made, and the page says an
 * administrator must help. `delivered` settles when the mail has gone (or failed, logged): for tests and
 * scripts, never for the answer.
 */
export async function requestPasswordReset({ ctx, input }: { ctx: ServiceContext; input: { email: string } }) {
  const { email } = validateInput(requestResetInput, input);
  if (!mailEnabled(ctx.env)) return { mail: "unavailable" as const, delivered: Promise.resolve() };
  const [user] = await ctx.db.select({ id: users.id, merchantId: users.merchantId }).from(users).where(eq(users.email, email)).limit(1);
  if (!user) return { mail: "sent_if_account" as const, delivered: Promise.resolve() };

  const link = await makeResetLink(ctx, user);
  const delivered = sendMail({
    ctx,
    input: {
      kind: "password_reset",
      to: email,
      subject: "Reset your password",
      text: [
        "Someone asked to reset the password of your Merchant Payments dashboard account.",
        "",
        `To choose a new password, open this link within 30 minutes (it works once):`,
        link,
        "",
        "If it was not you, ignore this message: your password stays as it is.",
      ].join("\n"),
    },
  }).then(() => undefined);
  return { mail: "sent_if_account" as const, delivered };
}

/** A new reset link for the user, earlier unused ones ended; audited. */
async function makeResetLink(ctx: ServiceContext, user: { id: string; merchantId: string | null }): Promise<string> {
  const token = newOneTimeToken();
  const now = ctx.now();
  await withTransaction(ctx.db, async (tx) => {
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)));
    await tx.insert(passwordResets).values({
      id: newId("passwordReset"),
      userId: user.id,
      tokenHash: digestToken(token),
      expiresAt: new Date(now.getTime() + RESET_LINK_LIFETIME_MS),
      createdAt: now,
    });
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "user.password_reset_requested", targetType: "user", targetId: user.id, merchantId: user.merchantId },
    });
  });
  return resetLink(ctx.env.PUBLIC_BASE_URL, token);
}

/**
 * A reset link for an operator to hand over when the service sends no mail (`npm run password:reset-link`):
 * the system actor only (a script with the database's credentials), never an adapter. Null for an unknown address.
 */
export async function issuePasswordResetLink({ ctx, input }: { ctx: ServiceContext; input: { email: string } }): Promise<string | null> {
  if (ctx.actor.type !== "system") throw new ServiceError("forbidden", "Reset links are issued by an operator.");
  const { email } = validateInput(requestResetInput, input);
  const [user] = await ctx.db.select({ id: users.id, merchantId: users.merchantId }).from(users).where(eq(users.email, email)).limit(1);
  return user ? makeResetLink(ctx, user) : null;
}
