import { describe, expect, it } from "vitest";
import { signInAgainUrl } from "./sign-in-again";

describe("where a tab whose session ended goes", () => {
  it("from a dashboard page: the sign-in page, back to that page (and its filters) after", () => {
    expect(signInAgainUrl({ pathname: "/dashboard/payments", search: "?status=failed" })).toBe("/login?callbackUrl=%2Fdashboard%2Fpayments%3Fstatus%3Dfailed");
  });

  it("from the sign-in page (a query that was in flight when the tab signed out): nowhere, so the page is not reloaded", () => {
    expect(signInAgainUrl({ pathname: "/login", search: "" })).toBeNull();
    expect(signInAgainUrl({ pathname: "/login", search: "?callbackUrl=%2Fdashboard" })).toBeNull();
  });
});
