import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { dashboardAccess, navigationOf } from "../../src/server/auth/dashboard-routes";
import { may, type MemberRole, type Permission } from "../../src/server/auth/permissions";
import { declaredPermissions } from "../../src/server/trpc/callable";
import { appRouter } from "../../src/server/trpc/router";
import { createPaymentOverRest, DESKTOP, flipTestMode, screenshot, signUpThroughForm } from "./support";

// The dashboard offers each member only what their role may do (docs/team-and-security.md, "What the UI offers").
// Every control that calls a procedure is marked with it (`data-procedure`; a route handler's with its permission,
// `data-permission`); here each role's pages are checked against the permission table itself: every control shown
// is one the role may use (the procedure's declared permission, read from the router), the navigation is the
// route table's for that role, and the actions each page hosts are there exactly when the table allows them.

const declared = declaredPermissions(appRouter);

/** May this role call the procedure (its declared permission, in the mode)? */
function mayCall(role: MemberRole, path: string, livemode = true): boolean {
  const permission = declared.get(path);
  if (permission === undefined) throw new Error(`no procedure ${path}`);
  return permission === "public" || permission.some((one) => may(`member:${role}`, one, livemode));
}

async function invite(owner: Page, email: string, role: MemberRole): Promise<string> {
  await owner.goto("/dashboard/team");
  await owner.getByLabel("Email").fill(email);
  await owner.getByLabel("Role", { exact: true }).selectOption(role);
  await owner.getByRole("button", { name: "Invite" }).click();
  const link = (await owner.getByTestId("invitation-link").textContent())!.trim();
  return new URL(link).pathname;
}

/** A member of the owner's team with `role`, signed in in a browser of their own. */
async function member(owner: Page, browser: Browser, testInfo: TestInfo, role: MemberRole) {
  const email = `${role}-${randomBytes(4).toString("hex")}@e2e.example`;
  const password = `${role} password ${randomBytes(4).toString("hex")}`;
  const invitation = await invite(owner, email, role);
  const context = await browser.newContext({ baseURL: String(testInfo.project.use.baseURL), viewport: DESKTOP });
  const page = await context.newPage();
  await page.setExtraHTTPHeaders({ "x-forwarded-for": `10.${randomBytes(3).join(".")}` });
  await page.goto(invitation);
  await page.getByLabel("Your name").fill(`A ${role}`);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Repeat the password").fill(password);
  await page.getByRole("button", { name: "Join the team" }).click();
  await expect(page.getByRole("status")).toContainText("Your account is ready");
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/dashboard/);
  return { page, close: () => context.close() };
}

/**
 * Opens a page and waits until its reads are in, among them what the role may call (`access.procedures`, asked by
 * the pages' components that offer actions): nothing is offered before that answer.
 */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
}

/** Every control on the page that calls something: each must be one the role may use. */
async function expectOnlyAllowedControls(page: Page, role: MemberRole, where: string) {
  const procedures = await page.locator("main [data-procedure]").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-procedure")!));
  for (const path of procedures) expect(mayCall(role, path), `${role} is offered ${path} on ${where}`).toBe(true);
  const permissions = await page.locator("main [data-permission]").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-permission")!));
  for (const permission of permissions) expect(may(`member:${role}`, permission as Permission, true), `${role} is offered ${permission} on ${where}`).toBe(true);
  return procedures;
}

for (const role of ["viewer", "developer", "support"] as const) {
  test(`a ${role} is offered only what the permission table gives the role: pages, navigation and actions`, async ({ page: owner, browser }, testInfo) => {
    test.setTimeout(120_000);
    await owner.setViewportSize(DESKTOP);
    const merchant = await signUpThroughForm(owner, "Role Offers");
    const payment = await createPaymentOverRest(owner.request, merchant.apiKey, { externalId: `offers-${randomBytes(4).toString("hex")}`, amount: "12.00", currency: "EUR" });
    const invoiceResponse = await owner.request.post("/api/v1/invoice", { headers: { authorization: `Bearer ${merchant.apiKey}` }, data: { amount: "5.00", currency: "EUR" } });
    expect(invoiceResponse.status()).toBe(201);
    const invoice = (await invoiceResponse.json()) as { id: string };

    // The pages of the brief and, on each, the actions it hosts (a fact of the UI, not of permissions): each must be
    // offered exactly when the table lets the role call its procedure.
    const pages: { path: string; hosts: string[] }[] = [
      { path: "/dashboard", hosts: [] },
      { path: "/dashboard/payments", hosts: [] },
      { path: `/dashboard/payments/${payment.id}`, hosts: ["refunds.create", "payments.markReconciled"] },
      { path: "/dashboard/invoices", hosts: ["invoices.create"] },
      { path: `/dashboard/invoices/${invoice.id}`, hosts: ["invoices.void"] },
      { path: "/dashboard/webhooks", hosts: ["webhookEndpoints.create", "webhookEndpoints.update", "webhookEndpoints.rotateSecret", "webhooks.sendTest", "webhooks.revealSecret", "webhooks.rotateSecret"] },
      { path: "/dashboard/settings", hosts: ["merchants.update", "merchants.setPaymentMethods", "merchants.setSecondFactorPolicy"] },
      { path: "/dashboard/reconciliation", hosts: [] },
      { path: "/dashboard/team", hosts: ["team.invite"] },
      { path: "/dashboard/keys", hosts: ["apiKeys.create", "publishedKeys.publish"] },
    ];

    const { page, close } = await member(owner, browser, testInfo, role);
    try {
      await open(page, "/dashboard");
      // The navigation is the route table's for the role: the same rule guardPage applies.
      await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link")).toHaveText(navigationOf(`member:${role}`).map((item) => item.label));
      for (const { path, hosts } of pages) {
        if (dashboardAccess(`member:${role}`, path).outcome !== "allowed") {
          await page.goto(path);
          await expect(page, `${role} may not open ${path}`).not.toHaveURL(new RegExp(`${path}$`));
          continue;
        }
        await open(page, path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        const offered = await expectOnlyAllowedControls(page, role, path);
        for (const procedure of hosts) expect(offered.includes(procedure), `${procedure} offered to ${role} on ${path}`).toBe(mayCall(role, procedure));
        // Where the table allows none of the page's actions (a viewer on payments, webhooks, invoices and settings),
        // nothing at all is offered there.
        if (hosts.every((procedure) => !mayCall(role, procedure))) expect(offered, `${role} on ${path}`).toEqual([]);
        if (path === "/dashboard/webhooks") await screenshot(page, testInfo, `role-offers-${role}-webhooks`);
      }
      // In test mode the table's test-mode row applies (a developer makes test invoices): the switch is everyone's.
      await open(page, "/dashboard/invoices");
      await flipTestMode(page);
      await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "true");
      await page.waitForLoadState("networkidle");
      const offeredInTest = await page.locator("main [data-procedure]").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-procedure")!));
      for (const path of offeredInTest) expect(mayCall(role, path, false), `${role} is offered ${path} in test mode`).toBe(true);
      expect(offeredInTest.includes("invoices.create"), `invoices.create offered to ${role} in test mode`).toBe(mayCall(role, "invoices.create", false));
    } finally {
      await close();
    }
  });
}
