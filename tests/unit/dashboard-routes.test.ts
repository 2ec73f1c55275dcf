import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { audienceAccess, dashboardAccess, dashboardRouteOf, homeOf, navigationOf } from "@/server/auth/dashboard-routes";
import { holdsAny, ROLES, SELF_SERVICE } from "@/server/auth/permissions";

const DASHBOARD = path.resolve("src/app/dashboard");

/** Every page and route handler under src/app/dashboard, as a URL (a dynamic segment as `x`) and its kind. */
function dashboardFiles(): { url: string; kind: "page" | "endpoint" }[] {
  const found: { url: string; kind: "page" | "endpoint" }[] = [];
  const walk = (folder: string, segments: string[]) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name.startsWith("[...")) continue; // the dashboard's 404: any path, any role
        walk(path.join(folder, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name.startsWith("[") ? "x" : entry.name]);
      } else if (entry.name === "page.tsx" || entry.name === "route.ts") {
        found.push({ url: "/" + ["dashboard", ...segments].join("/"), kind: entry.name === "page.tsx" ? "page" : "endpoint" });
      }
    }
  };
  walk(DASHBOARD, []);
  return found;
}

describe("the dashboard's route table", () => {
  it("has an entry, of the right kind, for every page and route handler under src/app/dashboard", () => {
    const files = dashboardFiles();
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const route = dashboardRouteOf(file.url);
      expect(route, `${file.url} needs an entry in DASHBOARD_ROUTES`).not.toBeNull();
      expect(route!.kind, file.url).toBe(file.kind);
    }
  });

  it("lets support staff upload and export a merchant's reconciliation, as merchants do", () => {
    for (const role of ["staff:admin", "member:owner", "member:support"] as const) {
      expect(dashboardAccess(role, "/dashboard/reconciliation/upload")).toEqual({ outcome: "allowed" });
      expect(dashboardAccess(role, "/dashboard/reconciliation/rec_01ABC/export")).toEqual({ outcome: "allowed" });
    }
  });

  it("keeps each role to its own pages, and answers endpoints rather than redirecting them", () => {
    expect(dashboardAccess("member:owner", "/dashboard/staff")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(dashboardAccess("member:owner", "/dashboard/staff/merchants/mer_1/reconciliation")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(dashboardAccess("member:owner", "/dashboard/staff/anything")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(dashboardAccess("staff:admin", "/dashboard")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(dashboardAccess("staff:admin", "/dashboard/keys")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(dashboardAccess("staff:admin", "/dashboard/payments/export")).toEqual({ outcome: "forbidden", kind: "endpoint" });
    // Within a team, by role: support sees no Keys page, a viewer cannot upload a settlement file.
    expect(dashboardAccess("member:support", "/dashboard/keys")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(dashboardAccess("member:viewer", "/dashboard/reconciliation/upload")).toEqual({ outcome: "forbidden", kind: "endpoint" });
    expect(dashboardAccess("staff:support", "/dashboard/staff/system")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(dashboardAccess(null, "/dashboard/reconciliation/upload")).toEqual({ outcome: "sign_in", kind: "endpoint" });
    expect(dashboardAccess(null, "/dashboard/invoices/inv_1")).toEqual({ outcome: "sign_in", kind: "page" });
    // A path that is no page is the dashboard's 404, shown to whoever is signed in.
    expect(dashboardAccess("staff:support", "/dashboard/no-such-page")).toEqual({ outcome: "allowed" });
  });

  it("the proxy lets an audience through where any of its roles may go (the page's guard then asks the live role)", () => {
    expect(audienceAccess("merchant", "/dashboard/keys")).toEqual({ outcome: "allowed" });
    expect(audienceAccess("merchant", "/dashboard/staff")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(audienceAccess("staff", "/dashboard/staff/system")).toEqual({ outcome: "allowed" });
    expect(audienceAccess("staff", "/dashboard/keys")).toEqual({ outcome: "forbidden", kind: "page" });
    expect(audienceAccess(null, "/dashboard/keys")).toEqual({ outcome: "sign_in", kind: "page" });
  });

  it("derives each role's navigation and start page from the same table", () => {
    expect(navigationOf("member:owner").map((item) => item.label)).toEqual(["Overview", "Invoices", "Payments", "Refunds", "Reconciliation", "Webhooks", "Keys", "Team", "Settings", "Audit log", "Account"]);
    expect(navigationOf("member:support").map((item) => item.label)).toEqual(["Overview", "Invoices", "Payments", "Refunds", "Reconciliation", "Team", "Settings", "Account"]);
    expect(navigationOf("staff:support").map((item) => item.label)).toEqual(["Payment search", "Merchants", "Account"]);
    expect(navigationOf("staff:admin")).toEqual([
      { href: "/dashboard/staff", label: "Payment search" },
      { href: "/dashboard/staff/merchants", label: "Merchants" },
      { href: "/dashboard/staff/audit", label: "Audit log" },
      { href: "/dashboard/staff/system", label: "System" },
      { href: "/dashboard/staff/account", label: "Account" },
    ]);
    expect(homeOf("member:viewer")).toBe("/dashboard");
    expect(homeOf("staff:support")).toBe("/dashboard/staff");
    for (const role of ROLES) {
      for (const item of navigationOf(role)) expect(dashboardAccess(role, item.href), item.href).toEqual({ outcome: "allowed" });
    }
  });
});

describe("self-service permissions", () => {
  it("every role of either audience holds one of SELF_SERVICE, so everyone can manage their own sign-in", () => {
    for (const role of ROLES) expect(holdsAny(role, SELF_SERVICE), role).toBe(true);
  });
});
