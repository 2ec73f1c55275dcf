import { describe, expect, it } from "vitest";
import { appRouter } from "@/server/trpc/router";
import { isSubmissionSchema } from "@/server/trpc/submission";

/**
 * Every dashboard mutation runs once per form submission (a `submissionOf` input, honoured by the idempotency
 * service: docs/dashboard.md, "Forms that create") unless it is listed here with why a repeat is harmless. A new
 * mutation fails this test until it is one or the other, so "a double click makes two" cannot come back unseen.
 */
const REPEAT_IS_HARMLESS: Record<string, string> = {
  "apiKeys.revoke": "revoking a revoked key changes nothing",
  "publishedKeys.revoke": "revoking a revoked key changes nothing",
  "invoices.void": "voids once; the invoice's state machine refuses a second void and the page shows the voided invoice",
  "merchants.update": "sets the same profile again",
  "merchants.setPaymentMethods": "replaces the list with the same list, which writes nothing",
  "webhookEndpoints.update": "sets the same fields again",
  "webhookEndpoints.remove": "removing a removed endpoint changes nothing",
  "payments.clearReconciliation": "clearing a cleared reconciliation changes nothing",
  "payments.staff.clearReconciliation": "clearing a cleared reconciliation changes nothing",
  "webhooks.revealSecret": "reads the secret (audit-logged per reveal, which is the point)",
  // The three below are the webhook engine's (retry, bulk retry, test sends, replay since…): their bounds and
  // de-duplication are the engine's own (docs/webhooks.md), and a retry of a delivery already queued is refused.
  "webhooks.retry": "a delivery no longer failed is refused (delivery_not_failed)",
  "webhooks.retryFailed": "a second bulk retry finds the failed deliveries already queued",
  "webhooks.sendTest": "sends a test event: rate-limited per merchant, nothing is stored for the merchant's data",
  "webhookEndpoints.recover": "queues an endpoint's events again, bounded and de-duplicated by the engine's recover (docs/webhooks.md)",
  // The user's own sign-in security (docs/team-and-security.md): each is one-time by its own state.
  "merchants.setSecondFactorPolicy": "sets the same requirement again",
  "account.startTotp": "a new unconfirmed secret replaces the last; nothing counts until confirmed",
  "account.confirmTotp": "a second confirmation is refused (second_factor_exists)",
  "account.disableTotp": "removing a removed authenticator is refused (not_found)",
  "account.regenerateRecoveryCodes": "replaces the codes again; only the last set shown works, and the page shows that one",
  "account.startPasskey": "a new challenge; an unanswered one expires unused",
  "account.finishPasskey": "the challenge works once (sign_in_expired) and a credential registers once (second_factor_exists)",
  "account.removePasskey": "removing a removed passkey is refused (not_found)",
  "account.endSession": "ending an ended session is refused (not_found)",
  "account.endOtherSessions": "ends the others again: none are left",
  // The team (docs/team-and-security.md): each is one-time by the team's own state.
  "account.switchMerchant": "switches to the same merchant again",
  "team.changeRole": "sets the same role again, which writes nothing",
  "team.remove": "removing a removed member is refused (not_found)",
  "team.leave": "leaving again is refused: no longer a member",
  "team.invite": "a new invitation to the same email ends the earlier one; only the last link works, and the page shows that one",
  "team.revokeInvitation": "revoking a revoked invitation is refused (not_found)",
  // Staff viewing as a merchant (docs/team-and-security.md): the session's one grant.
  "staff.startViewAs": "starts the same grant again: the session holds one, its hour renewed, one more audit row",
  "staff.stopViewAs": "stopping a stopped view changes nothing and writes no audit row",
  "staff.viewAsPageViewed": "a page view recorded twice is what a reload is: each view is one audit row",
};

function mutations(): { path: string; takesSubmission: boolean }[] {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string; inputs: unknown[] } }> } })._def.procedures;
  return Object.entries(procedures)
    .filter(([, procedure]) => procedure._def.type === "mutation")
    .map(([path, procedure]) => ({ path, takesSubmission: procedure._def.inputs.some(isSubmissionSchema) }));
}

describe("dashboard mutations", () => {
  it("each runs once per form submission, or says why a repeat is harmless", () => {
    const found = mutations();
    expect(found.length).toBeGreaterThan(20);
    const unguarded = found.filter((mutation) => !mutation.takesSubmission && !(mutation.path in REPEAT_IS_HARMLESS)).map((m) => m.path);
    expect(unguarded, "take submissionOf(…) and run through once(…), or list why a repeat is harmless").toEqual([]);
  });

  it("lists no exception that is guarded anyway or no longer exists", () => {
    const found = new Map(mutations().map((mutation) => [mutation.path, mutation.takesSubmission]));
    for (const path of Object.keys(REPEAT_IS_HARMLESS)) expect(found.get(path), path).toBe(false);
  });

  it("guards every procedure that creates something or acts for staff", () => {
    const guarded = mutations().filter((mutation) => mutation.takesSubmission).map((mutation) => mutation.path);
    expect(guarded).toEqual(
      expect.arrayContaining([
        "apiKeys.create",
        "apiKeys.roll",
        "invoices.create",
        "invoices.staff.markPaid",
        "invoices.staff.markVoid",
        "webhookEndpoints.create",
        "webhookEndpoints.rotateSecret",
        "webhooks.rotateSecret",
        "webhooks.staffRetry",
        "publishedKeys.publish",
        "payments.staff.markReconciled",
        "reconciliation.staff.resolveLine",
        "reconciliation.staff.resolveMatched",
      ]),
    );
  });
});
