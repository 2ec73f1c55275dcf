import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { AcceptAsNewForm, AcceptAsSignedInForm } from "@/components/team/accept-invitation-form";
import { newId } from "@/lib/ids";
import { getDashboardSession } from "@/server/auth/current-session";
import { clientIpFromHeaders } from "@/server/auth/request-ip";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { describeInvitation } from "@/server/services/team/invitations";

// The token is in the path: no Referer leaves this page with it.
export const metadata: Metadata = { title: "Join a team", referrer: "no-referrer" };

/**
 * A team invitation's link (docs/team-and-security.md, "Invitations"): a new person sets a name and password; the
 * invited person, signed in, joins with one click; anyone else signed in is refused; a used, revoked, expired or
 * mistyped link says which.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const token = decodeURIComponent((await params).token);
  const runtime = await getRuntime();
  const ip = clientIpFromHeaders(await headers(), runtime.env.TRUSTED_PROXY_HOPS);
  let invitation;
  try {
    invitation = await describeInvitation({ ctx: createServiceContext(runtime, { type: "anonymous", ip }, newId("request")), input: { token } });
  } catch (error) {
    if (!(error instanceof RateLimitedError) && !isServiceError(error)) throw error;
    const message = error instanceof RateLimitedError ? "Too many attempts from your network. Try again later." : error.detail;
    return (
      <div className="auth-card">
        <h1>Join a team</h1>
        <p className="alert alert-error" role="alert">
          {message}
        </p>
      </div>
    );
  }
  const user = await getDashboardSession();
  return (
    <div className="auth-card">
      <h1>Join {invitation.merchantName}</h1>
      <p>
        You are invited as <strong>{invitation.role}</strong>.
      </p>
      {user && user.email !== invitation.email ? (
        <p className="alert alert-error" role="alert">
          This invitation is for {invitation.email}, and you are signed in as {user.email}. Sign out, then open the link again.
        </p>
      ) : user ? (
        <AcceptAsSignedInForm token={token} merchantName={invitation.merchantName} />
      ) : invitation.hasAccount ? (
        <p>
          {invitation.email} has an account already: <Link href="/login">sign in</Link>, then open this link again.
        </p>
      ) : (
        <AcceptAsNewForm token={token} email={invitation.email} />
      )}
    </div>
  );
}
