import { randomInt } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { digestToken } from "@/server/crypto/one-time-token";
import { recoveryCodes } from "@/server/db/schema";
import type { ServiceContext } from "../context";

export const RECOVERY_CODE_COUNT = 10;
// No 0/O, 1/I/L: codes are read off paper and typed.
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** `XXXXX-XXXXX`: 10 characters of a 31-letter alphabet, ≈ 49 bits each; ten per enrolment. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** What is hashed and compared: case, spaces and dashes as the user typed them do not matter. */
function normalise(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, "");
}

/** Replaces the user's recovery codes with ten new ones, stored as digests; returns them, to be shown once. */
export async function replaceRecoveryCodes(ctx: ServiceContext, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await ctx.db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ id: newId("recoveryCode"), userId, codeHash: digestToken(normalise(code)), createdAt: ctx.now() })));
  return codes;
}

/** Spends one unused recovery code of the user; false when it is unknown or already spent (one UPDATE: no race). */
export async function spendRecoveryCode(ctx: ServiceContext, userId: string, code: string): Promise<boolean> {
  const text = normalise(code);
  if (text.length !== 10) return false;
  const spent = await ctx.db
    .update(recoveryCodes)
    .set({ usedAt: ctx.now() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, digestToken(text)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return spent.length > 0;
}
