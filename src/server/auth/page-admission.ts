import { newId } from "@/lib/ids";
import type { Runtime } from "@/server/runtime";
import type { RequestClient } from "@/server/services/context";
import { createServiceContext } from "@/server/services/create-context";
import { getMerchant } from "@/server/services/merchants/get";
import { recordViewAsPage } from "@/server/services/staff/view-as";
import { activeViewAs, type SessionUser } from "@/server/services/users/session-user";
import { homeOf } from "./dashboard-routes";
import { admitPage, type PageAdmission } from "./view-as";

/**
 * A dashboard page opened by a signed-in user (auth/page-guard.ts, without Next's request APIs so tests can call
 * it): admitted or sent elsewhere (`admitPage`), and, while a staff session views a merchant, the page recorded in
 * that merchant's audit log (`staff.view_as_page_viewed`) before anything of it is rendered. Recorded here rather
 * than by the page in the browser, which could be skipped. A router prefetch is no page view: not recorded.
 * Recorded against the session row itself: when the grant has just ended (Stop in another tab or process within the
 * session cache's 2 s), nothing is recorded and the page is refused, back to the staff console.
 */
export async function openPage(
  runtime: Runtime,
  user: SessionUser,
  pathname: string,
  request: { client?: RequestClient; prefetch?: boolean } = {},
): Promise<PageAdmission> {
  const admission = admitPage(user, pathname, runtime.now());
  if (admission.outcome !== "allowed" || !admission.viewingAs || request.prefetch) return admission;
  const ctx = createServiceContext(runtime, { type: "staff", userId: user.id, sessionId: user.sessionId }, newId("request"), request.client);
  const { recorded } = await recordViewAsPage({ ctx, input: { path: pathname } });
  return recorded ? admission : { outcome: "redirect", to: homeOf(user.access) };
}

/** The merchant a staff session views while its grant lasts, for the dashboard's banner; null when none. */
export async function viewedMerchant(runtime: Runtime, user: SessionUser): Promise<{ merchantId: string; name: string; until: string } | null> {
  const grant = activeViewAs(user, runtime.now());
  if (!grant) return null;
  const ctx = createServiceContext(runtime, { type: "staff", userId: user.id, merchantId: grant.merchantId, sessionId: user.sessionId }, newId("request"));
  const merchant = await getMerchant({ ctx, input: { id: grant.merchantId } });
  return { merchantId: grant.merchantId, name: merchant.name, until: grant.until };
}
