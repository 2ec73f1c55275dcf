import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, screenshot, signUpThroughForm, uniqueId } from "./helpers";

test("a merchant uploads a settlement file with each kind of line, maps its columns, resolves, and exports", async ({ page, request }, testInfo) => {
  const merchant = await signUpThroughForm(page, "Reconcile Shop");
  const ids = { matched: uniqueId("m"), amount: uniqueId("a"), currency: uniqueId("c"), absent: uniqueId("f") };
  const matched = await createPaymentOverRest(request, merchant.apiKey, { externalId: ids.matched, amount: "10.10", currency: "USD" });
  await createPaymentOverRest(request, merchant.apiKey, { externalId: ids.amount, amount: "5.00", currency: "USD" });
  await createPaymentOverRest(request, merchant.apiKey, { externalId: ids.currency, amount: "7.00", currency: "EUR" });
  await createPaymentOverRest(request, merchant.apiKey, { externalId: ids.absent, amount: "1.00", currency: "USD" });
  const day = new Date().toISOString().slice(0, 10);
  // The processor's own column names: mapped once in the form.
  const file = [
    "Txn,Gross,Cur,Settled",
    `${ids.matched},10.1,USD,${day}`,
    `${ids.amount},5.01,USD,${day}`,
    `${ids.currency},7.00,USD,${day}`,
    `${uniqueId("ghost")},3.00,USD,${day}`,
    `${uniqueId("bad")},three,USD,${day}`,
  ].join("\n");

  await page.getByRole("link", { name: /go to the dashboard/ }).click();
  await page.getByRole("navigation").getByRole("link", { name: "Reconciliation" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reconciliation" })).toBeVisible();
  await page.getByLabel("Settlement file (CSV, up to 10 MB)").setInputFiles({ name: "settlement.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
  await page.getByLabel("externalId").selectOption("Txn");
  await page.getByLabel("amount", { exact: true }).selectOption("Gross");
  await page.getByLabel("currency").selectOption("Cur");
  await page.getByLabel("settledAt").selectOption("Settled");
  await page.getByRole("button", { name: "Reconcile" }).click();

  await expect(page.getByTestId("summary-matched")).toHaveText("1");
  await expect(page.getByTestId("summary-mismatched")).toHaveText("2");
  await expect(page.getByTestId("summary-missingInLedger")).toHaveText("1");
  await expect(page.getByTestId("summary-missingInFile")).toHaveText("1");
  await expect(page.getByTestId("summary-malformed")).toHaveText("1");
  await expectAccessible(page);
  await screenshot(page, testInfo, "reconciliation-report");

  // Resolve the amount mismatch on its own, then every matched line at once.
  const mismatch = page.locator("tr", { hasText: ids.amount });
  await mismatch.getByPlaceholder("Note").fill("Processor fee taken from the gross");
  await mismatch.getByRole("button", { name: "Resolve" }).click();
  await expect(mismatch).toContainText("Processor fee taken from the gross");
  await page.getByLabel("Note for all matched lines").fill("Settlement of the day");
  await page.getByRole("button", { name: "Mark all matched reconciled" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 matched payment(s) marked reconciled." })).toBeVisible();
  await expect(page.locator("tr", { hasText: ids.matched })).toContainText("Settlement of the day");

  await page.getByLabel("Show").selectOption("malformed");
  const lines = page.getByRole("region", { name: "Report lines" }).locator("tbody tr");
  await expect(lines).toHaveCount(1);
  await expect(lines).toContainText("amount must be a plain decimal");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  const exported = readFileSync((await download.path())!, "utf8");
  expect(exported.split("\n")[0]).toContain("lineNumber,status,reason");
  expect(exported).toContain(`${ids.matched}`);
  expect(exported).toContain("Settlement of the day");
  expect(exported).toContain("missingInFile");

  // The mapping is remembered: the next file with the same columns is mapped already.
  await page.reload();
  await page.getByLabel("Settlement file (CSV, up to 10 MB)").setInputFiles({ name: "again.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
  await expect(page.getByLabel("amount", { exact: true })).toHaveValue("Gross");

  // The payment shows its reconciliation.
  await page.goto(`/dashboard/payments/${matched.id}`);
  await expect(page.locator(".details")).toContainText(/Reconciled\s*20\d\d-/);
});
