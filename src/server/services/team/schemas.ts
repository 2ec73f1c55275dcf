import { z } from "zod";
import { MEMBER_ROLES, type MemberRole } from "@/lib/roles";
import { email } from "../merchants/schemas";
import { password } from "../users/schemas";

/** An invitation link works 7 days, once (docs/team-and-security.md, "Invitations"). */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3_600_000;

export const memberRoleInput = z.enum(MEMBER_ROLES);
const userId = z.string().min(1).max(64);

export const changeRoleInput = z.strictObject({ userId, role: memberRoleInput });
export const removeMemberInput = z.strictObject({ userId });
export const inviteInput = z.strictObject({ email, role: memberRoleInput });
export const invitationIdInput = z.strictObject({ id: z.string().min(1).max(64) });
export const invitationTokenInput = z.strictObject({ token: z.string().min(1).max(200) });
export const acceptAsNewInput = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().trim().min(1, "is required").max(200),
  password,
});
export const switchMerchantInput = z.strictObject({ merchantId: z.string().min(1).max(64) });

/**
 * What a member's role holds of the team's permissions: the permission table's answer (auth/permissions.ts),
 * handed in by the adapter (`TEAM_RULES` there), since services sit below the table's layer.
 */
export interface TeamRules {
  holds(role: MemberRole, permission: "team.write" | "team.ownership"): boolean;
}

export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: MemberRole;
  joinedAt: Date;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
  expiresAt: Date;
}

export function invitationLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, "")}/invite/${encodeURIComponent(token)}`;
}
