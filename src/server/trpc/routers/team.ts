import { TEAM_RULES } from "@/server/auth/permissions";
import { forgetSessions } from "@/server/auth/session-lookup";
import { inviteMember, listInvitations, revokeInvitation } from "@/server/services/team/invitations";
import { changeMemberRole, listMembers, removeMember } from "@/server/services/team/members";
import { changeRoleInput, invitationIdInput, inviteInput, removeMemberInput } from "@/server/services/team/schemas";
import { createRouter, merchantProcedure } from "../init";

/**
 * The Team page (docs/team-and-security.md): members and pending invitations (`team.read`), inviting, changing
 * roles and removing (`team.write`; owners only touch owners: the service checks `team.ownership`), and leaving
 * (any member: `own_account.write`). A changed or removed member's sessions are forgotten in this process at
 * once, so their next request here reads their new role (or none); every other process within the cache's TTL.
 */
export const teamRouter = createRouter({
  members: merchantProcedure("team.read").query(async ({ ctx }) => {
    const [members, invitations] = await Promise.all([listMembers({ ctx: ctx.service }), listInvitations({ ctx: ctx.service })]);
    return { members, invitations, you: ctx.session.id };
  }),
  changeRole: merchantProcedure("team.write")
    .input(changeRoleInput)
    .mutation(async ({ ctx, input }) => {
      const changed = await changeMemberRole({ ctx: ctx.service, input, rules: TEAM_RULES });
      forgetSessions(ctx.runtime, { userId: input.userId });
      return changed;
    }),
  remove: merchantProcedure("team.write")
    .input(removeMemberInput)
    .mutation(async ({ ctx, input }) => {
      const removed = await removeMember({ ctx: ctx.service, input, rules: TEAM_RULES });
      forgetSessions(ctx.runtime, { userId: input.userId });
      return { userId: removed.userId, sessionsEnded: removed.sessionsEnded.length };
    }),
  /** The signed-in member leaves this merchant's team (the last owner may not). Their session here ends. */
  leave: merchantProcedure("own_account.write").mutation(async ({ ctx }) => {
    const removed = await removeMember({ ctx: ctx.service, input: { userId: ctx.session.id }, rules: TEAM_RULES });
    forgetSessions(ctx.runtime, { userId: ctx.session.id });
    return { sessionsEnded: removed.sessionsEnded.length };
  }),
  /** The link is in this answer only: the inviter copies it (it is also mailed when SMTP_URL is set). */
  invite: merchantProcedure("team.write")
    .input(inviteInput)
    .mutation(async ({ ctx, input }) => {
      const { invitation, link, mail } = await inviteMember({ ctx: ctx.service, input, rules: TEAM_RULES });
      return { invitation, link, mail };
    }),
  revokeInvitation: merchantProcedure("team.write")
    .input(invitationIdInput)
    .mutation(({ ctx, input }) => revokeInvitation({ ctx: ctx.service, input })),
});
