import Link from "next/link";
import type { ReactNode } from "react";
import { signOutAction } from "@/app/dashboard/actions";
import type { SessionUser } from "@/server/auth/session";
import { NavLinks, type NavItem } from "./nav-links";
import { TestModeSwitch } from "./test-mode-switch";

const MERCHANT_NAV: NavItem[] = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/invoices", label: "Invoices" },
  { href: "/dashboard/payments", label: "Payments" },
  { href: "/dashboard/reconciliation", label: "Reconciliation" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/keys", label: "Keys" },
  { href: "/dashboard/settings", label: "Settings" },
];

const STAFF_NAV: NavItem[] = [
  { href: "/dashboard/staff", label: "Payment search" },
  { href: "/dashboard/staff/merchants", label: "Merchants" },
  { href: "/dashboard/staff/audit", label: "Audit log" },
  { href: "/dashboard/staff/system", label: "System" },
  { href: "/dashboard/staff/account", label: "Account" },
];

/** `testMode`: the merchant's test-mode switch is on (docs/test-mode.md); staff always see live data. */
export function DashboardShell({ user, testMode, children }: { user: SessionUser; testMode: boolean; children: ReactNode }) {
  const staff = user.role === "staff";
  const root = staff ? "/dashboard/staff" : "/dashboard";
  const showTestMode = !staff && testMode;
  return (
    <div className={`shell${showTestMode ? " shell-test-mode" : ""}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <div className="shell-bar">
          <Link className="shell-brand" href={root}>
            Merchant Payments{staff ? " · Support" : ""}
          </Link>
          <NavLinks items={staff ? STAFF_NAV : MERCHANT_NAV} root={root} />
          {staff ? null : <TestModeSwitch testMode={testMode} />}
          <div className="shell-user">
            <span>
              Signed in as <strong>{user.email}</strong>
            </span>
            <form action={signOutAction}>
              <button type="submit" className="btn btn-small">
                Sign out
              </button>
            </form>
          </div>
        </div>
        {showTestMode ? (
          <p className="test-mode-banner" role="status">
            <strong>Test mode</strong> — you are viewing and creating test data: made with <code>sk_test_</code> keys, never
            in live statistics, webhooks to test endpoints only.
          </p>
        ) : null}
      </header>
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
