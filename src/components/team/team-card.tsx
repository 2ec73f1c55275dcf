"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { usePermissions } from "@/components/shell/use-permissions";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { CopyButton } from "@/components/ui/copy-button";
import { formatDate } from "@/components/ui/format";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { MEMBER_ROLES, type MemberRole } from "@/lib/roles";
import { useTRPC } from "@/lib/trpc/client";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/**
 * The Team page (docs/team-and-security.md): members and pending invitations; owners and admins (`team.write`)
 * change roles, remove, invite and revoke; only owners (`team.ownership`) offer "owner" or act on an owner.
 */
export function TeamCard() {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const { can, mayCall } = usePermissions();
  const [invited, setInvited] = useState<{ email: string; link: string; mail: string } | null>(null);
  const team = useQuery(trpc.team.members.queryOptions());
  const refresh = () => refreshAfterWrite(trpc.team.pathKey());
  const changeRole = useMutation(trpc.team.changeRole.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.team.remove.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.team.revokeInvitation.mutationOptions({ onSuccess: refresh }));
  const invite = useMutation(
    trpc.team.invite.mutationOptions({
      onSuccess: async (result) => {
        setInvited({ email: result.invitation.email, link: result.link, mail: result.mail });
        await refresh();
      },
    }),
  );
  const error = changeRole.error ?? remove.error ?? revoke.error ?? invite.error;
  // Each control asks about the procedure it calls; acting on an owner, or offering "owner", is the table's
  // `team.ownership` (the services' rule, not one procedure's declaration).
  const ownership = can("team.ownership");
  const offered = (current: MemberRole) => MEMBER_ROLES.filter((role) => ownership || (role !== "owner" && current !== "owner"));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    invite.mutate({ email: String(form.get("email") ?? "").trim(), role: String(form.get("role")) as MemberRole });
    event.currentTarget.reset();
  }

  return (
    <>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error.message}
        </p>
      ) : null}
      {mayCall("team.invite") ? (
        <section className="card" aria-labelledby="invite-heading" data-procedure="team.invite">
          <h2 id="invite-heading">Invite a member</h2>
          <form className="form-row" onSubmit={submit}>
            <div className="field">
              <label htmlFor="invite-email">Email</label>
              <input id="invite-email" name="email" type="email" required maxLength={254} autoComplete="off" />
            </div>
            <div className="field">
              <label htmlFor="invite-role">Role</label>
              <select id="invite-role" name="role" defaultValue="viewer">
                {MEMBER_ROLES.filter((role) => ownership || role !== "owner").map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
              {invite.isPending ? "Inviting…" : "Invite"}
            </button>
          </form>
          {invited ? (
            <div className="alert alert-warning" role="status" style={{ margin: "0.75rem 0" }}>
              <p style={{ marginTop: 0 }}>
                Invitation for {invited.email} {invited.mail === "sent" ? "sent by email" : "made (this service sends no mail)"}. Copy the link now: it is
                shown only this once and works for 7 days.
              </p>
              <p>
                <code data-testid="invitation-link">{invited.link}</code> <CopyButton value={invited.link} label="Copy link" />
              </p>
              <button type="button" className="btn btn-small" onClick={() => setInvited(null)}>
                Done
              </button>
            </div>
          ) : null}
        </section>
      ) : null}
      <QueryView query={team} what="the team">
        {({ members, invitations, you }) => (
          <>
            <section className="card" aria-labelledby="members-heading">
              <h2 id="members-heading">Members</h2>
              <TableWrap label="Members">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Email</th>
                      <th scope="col">Name</th>
                      <th scope="col">Role</th>
                      <th scope="col">Joined</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {members.map((member) => {
                      const mayAct = member.userId !== you && (ownership || member.role !== "owner");
                      return (
                        <tr key={member.userId}>
                          <td>{member.email}</td>
                          <td>{member.name ?? "—"}</td>
                          <td>
                            {mayAct && mayCall("team.changeRole") ? (
                              <select
                                data-procedure="team.changeRole"
                                aria-label={`Role of ${member.email}`}
                                value={member.role}
                                disabled={changeRole.isPending}
                                onChange={(event) => changeRole.mutate({ userId: member.userId, role: event.target.value as MemberRole })}
                              >
                                {offered(member.role).map((role) => (
                                  <option key={role} value={role}>
                                    {role}
                                  </option>
                                ))}
                              </select>
                            ) : (
                              member.role
                            )}
                          </td>
                          <td>{formatDate(member.joinedAt)}</td>
                          <td>
                            {mayAct && mayCall("team.remove") ? (
                              <ConfirmAction
                                label="Remove…"
                                ariaLabel={`Remove ${member.email}`}
                                procedure="team.remove"
                                question={`Remove ${member.email} from the team? Their sessions end at once.`}
                                confirmLabel="Yes, remove"
                                busy={remove.isPending}
                                onConfirm={() => remove.mutateAsync({ userId: member.userId })}
                              />
                            ) : null}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableWrap>
            </section>
            <section className="card" aria-labelledby="invitations-heading">
              <h2 id="invitations-heading">Pending invitations</h2>
              {invitations.length === 0 ? (
                <p className="muted">None.</p>
              ) : (
                <TableWrap label="Pending invitations">
                  <table className="table">
                    <thead>
                      <tr>
                        <th scope="col">Email</th>
                        <th scope="col">Role</th>
                        <th scope="col">Expires</th>
                        <th scope="col">
                          <span className="visually-hidden">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {invitations.map((invitation) => (
                        <tr key={invitation.id}>
                          <td>{invitation.email}</td>
                          <td>{invitation.role}</td>
                          <td>{formatDate(invitation.expiresAt)}</td>
                          <td>
                            {mayCall("team.revokeInvitation") ? (
                              <button type="button" className="btn btn-small" data-procedure="team.revokeInvitation" disabled={revoke.isPending} onClick={() => revoke.mutate({ id: invitation.id })}>
                                Revoke
                              </button>
                            ) : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableWrap>
              )}
            </section>
          </>
        )}
      </QueryView>
    </>
  );
}
