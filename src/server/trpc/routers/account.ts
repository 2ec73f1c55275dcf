import { z } from "zod";
import { forgetSessions } from "@/server/auth/session-lookup";
import { confirmTotp } from "@/server/services/second-factors/confirm-totp";
import { disableTotp } from "@/server/services/second-factors/disable-totp";
import { finishPasskeyRegistration, finishPasskeyRegistrationInput, startPasskeyRegistration } from "@/server/services/second-factors/passkey-registration";
import { listOwnPasskeys, removePasskey } from "@/server/services/second-factors/passkeys";
import { secondFactorState } from "@/server/services/second-factors/policy";
import { regenerateRecoveryCodes } from "@/server/services/second-factors/regenerate-recovery-codes";
import { removeFactorInput, removePasskeyInput, totpCodeInput } from "@/server/services/second-factors/schemas";
import { startTotpEnrolment } from "@/server/services/second-factors/start-totp";
import { endOtherOwnSessions, endOwnSession } from "@/server/services/sessions/end-own";
import { listOwnSessions } from "@/server/services/sessions/list-own";
import { switchMerchantInput } from "@/server/services/team/schemas";
import { listOwnMemberships, switchMerchant } from "@/server/services/team/switch-merchant";
import { sessionPermissions } from "../callable";
import { createRouter, publicProcedure, selfProcedure } from "../init";

/**
 * The signed-in user's own account (docs/team-and-security.md): second factors and sessions. Every procedure but
 * `me` is a self-service one (`selfProcedure`: SELF_SERVICE in auth/permissions.ts). Password changes go through a
 * server action, as sign-in and sign-out do.
 */
export const accountRouter = createRouter({
  me: publicProcedure.query(({ ctx }) => ctx.session),
  /**
   * What the signed-in person may do here and now (their role's permissions in the dashboard's mode, from the
   * table): the client hides what is not in it. Empty when signed out; while staff view as a merchant, what the
   * view allows (auth/view-as.ts). The server refuses the rest anyway.
   */
  permissions: publicProcedure.query(({ ctx }) => sessionPermissions(ctx)),

  /** The merchants the person belongs to (the switcher's choices) and the one this session acts for. */
  memberships: selfProcedure.query(async ({ ctx }) => ({
    current: ctx.session.merchantId,
    memberships: ctx.session.role === "merchant" ? await listOwnMemberships({ ctx: ctx.service }) : [],
  })),
  /** The switcher: this session acts for another of the person's merchants from its next request on. */
  switchMerchant: selfProcedure.input(switchMerchantInput).mutation(async ({ ctx, input }) => {
    const switched = await switchMerchant({ ctx: ctx.service, input });
    forgetSessions(ctx.runtime, { sessionId: switched.sessionId });
    return { merchantId: switched.merchantId, role: switched.role };
  }),

  /** Which second factors the user has, whether one is required of them, their passkeys. */
  security: selfProcedure.query(async ({ ctx }) => {
    const [state, passkeys] = await Promise.all([secondFactorState(ctx.service, ctx.session.id), listOwnPasskeys({ ctx: ctx.service })]);
    return { ...state, passkeys };
  }),
  startTotp: selfProcedure.mutation(({ ctx }) => startTotpEnrolment({ ctx: ctx.service })),
  confirmTotp: selfProcedure.input(totpCodeInput).mutation(({ ctx, input }) => confirmTotp({ ctx: ctx.service, input })),
  disableTotp: selfProcedure.input(removeFactorInput).mutation(({ ctx, input }) => disableTotp({ ctx: ctx.service, input })),
  regenerateRecoveryCodes: selfProcedure.input(removeFactorInput).mutation(({ ctx, input }) => regenerateRecoveryCodes({ ctx: ctx.service, input })),
  startPasskey: selfProcedure.mutation(({ ctx }) => startPasskeyRegistration({ ctx: ctx.service })),
  finishPasskey: selfProcedure.input(finishPasskeyRegistrationInput).mutation(({ ctx, input }) => finishPasskeyRegistration({ ctx: ctx.service, input })),
  removePasskey: selfProcedure.input(removePasskeyInput).mutation(({ ctx, input }) => removePasskey({ ctx: ctx.service, input })),

  /** The user's live sessions; `current` marks the one asking. */
  sessions: selfProcedure.query(({ ctx }) => listOwnSessions({ ctx: ctx.service })),
  /** Ends one session; this process forgets it at once, every other within the session cache's TTL. */
  endSession: selfProcedure.input(z.strictObject({ id: z.string().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    const result = await endOwnSession({ ctx: ctx.service, input });
    forgetSessions(ctx.runtime, { sessionId: input.id });
    return { revoked: result.revoked };
  }),
  endOtherSessions: selfProcedure.mutation(async ({ ctx }) => {
    const result = await endOtherOwnSessions({ ctx: ctx.service });
    forgetSessions(ctx.runtime, { userId: result.userId });
    return { revoked: result.revoked };
  }),
});
