import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../../src/server/db/schema";
import { verifyAuditChains } from "../../../src/server/db/sql/audit-verify";
import { REFUSAL_AUDIT_WINDOW_MS } from "../../../src/server/services/audit/record-refusal";
import { acceptInvitation } from "../../../src/server/services/team/invitations";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { addTestMember } from "../../support/team";
import { serviceContext } from "../../support/users";

// Refusals in the merchant's audit log (docs/team-and-security.md): a member's call their role may not make, and an
// invitation link opened by the wrong person or used again — each refused, audited once a window, nothing changed.

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

const entries = (merchant: TestMerchant, action: string) =>
  runtime.database.db.select().from(auditLog).where(and(eq(auditLog.merchantId, merchant.merchant.id), eq(auditLog.action, action)));

const tokenOf = (link: string) => decodeURIComponent(link.split("/invite/")[1]!);

describe("refusals in the audit log", () => {
  it("a member's forbidden call is recorded once a window, naming the procedure and the permission; nothing else changes", async () => {
    const shop = await registerTestMerchant(api);
    const viewer = await addTestMember(runtime, shop, "viewer");
    for (let i = 0; i < 3; i++) {
      await expect(dashboardAs(runtime, viewer).team.changeRole({ userId: viewer.id, role: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    let refused = await entries(shop, "dashboard.call_refused");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ actorType: "user", actorId: viewer.id, targetType: "procedure", targetId: "team.changeRole" });
    expect(refused[0]!.details).toMatchObject({ permission: "team.write", reason: expect.stringContaining("team.write") });
    const owner = await addTestMember(runtime, shop, "owner");
    expect((await dashboardAs(runtime, owner).team.members()).members.find((member) => member.userId === viewer.id)?.role).toBe("viewer");

    runtime.advanceTime(REFUSAL_AUDIT_WINDOW_MS + 1000);
    await expect(dashboardAs(runtime, viewer).team.changeRole({ userId: viewer.id, role: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    refused = await entries(shop, "dashboard.call_refused");
    expect(refused).toHaveLength(2);
    const [chain] = await verifyAuditChains(runtime.database.db, { merchantId: shop.merchant.id });
    expect(chain!.firstBreak).toBeNull();
  });

  it("an invitation opened by another signed-in person, or used again, is recorded in the inviting team's log", async () => {
    const shop = await registerTestMerchant(api);
    const owner = await addTestMember(runtime, shop, "owner");
    const other = await addTestMember(runtime, await registerTestMerchant(api), "owner");
    const invited = await dashboardAs(runtime, owner).team.invite({ email: `agent-${shop.merchant.id}@example.com`, role: "support" });
    const token = tokenOf(invited.link);
    const asOther = serviceContext(runtime, { type: "user", userId: other.id, merchantId: other.merchantId! });
    await expect(acceptInvitation({ ctx: asOther, input: { token } })).rejects.toMatchObject({ code: "forbidden" });
    const refused = await entries(shop, "team.invitation_refused");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ actorType: "user", targetType: "invitation", targetId: invited.invitation.id });
    expect(String((refused[0]!.details as { reason: string }).reason)).toContain("This invitation is for");
    // Nothing joined: the other person is no member of the inviting team.
    const members = (await dashboardAs(runtime, owner).team.members()).members;
    expect(members.map((member) => member.email)).not.toContain(other.email);
  });
});
