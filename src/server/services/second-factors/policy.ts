import { and, count, eq, isNotNull, isNull } from "drizzle-orm";
import { merchants, passkeys, recoveryCodes, totpFactors, users } from "@/server/db/schema";
import type { Env } from "@/env";
import type { ServiceContext } from "../context";

/** Why a user must have a second factor, or null when it is their choice. */
export type SecondFactorRule = "team" | "staff_in_production" | null;

export interface SecondFactorState {
  /** A confirmed authenticator app. */
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
  requiredBy: SecondFactorRule;
}

/**
 * Which second factors a user has and whether one is required of them (docs/team-and-security.md, "Second
 * factors"): support staff in production always; a merchant's users when the merchant requires it
 * (`merchants.require_second_factor`, set by the owner). Sign-in asks for one when the user has one, and makes a
 * user who must have one and has none set one up before their session starts.
 */
export async function secondFactorState(ctx: ServiceContext, userId: string): Promise<SecondFactorState> {
  const [[row], [totp], [keys], [codes]] = await Promise.all([
    ctx.db
      .select({ role: users.role, teamRequires: merchants.requireSecondFactor })
      .from(users)
      .leftJoin(merchants, eq(merchants.id, users.merchantId))
      .where(eq(users.id, userId))
      .limit(1),
    ctx.db.select({ n: count() }).from(totpFactors).where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt))),
    ctx.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)),
    ctx.db.select({ n: count() }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))),
  ]);
  const requiredBy: SecondFactorRule = row?.role === "staff" && staffMustHaveSecondFactor(ctx.env) ? "staff_in_production" : row?.teamRequires ? "team" : null;
  return { totp: (totp?.n ?? 0) > 0, passkeys: keys?.n ?? 0, recoveryCodesLeft: codes?.n ?? 0, requiredBy };
}

/** Support staff need a second factor in production, unless STAFF_SECOND_FACTOR says otherwise (e2e of a production build). */
export function staffMustHaveSecondFactor(env: Pick<Env, "NODE_ENV" | "STAFF_SECOND_FACTOR">): boolean {
  return (env.STAFF_SECOND_FACTOR ?? (env.NODE_ENV === "production" ? "required" : "optional")) === "required";
}

export function hasSecondFactor(state: SecondFactorState): boolean {
  return state.totp || state.passkeys > 0;
}
