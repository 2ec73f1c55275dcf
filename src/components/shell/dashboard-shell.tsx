import Link from "next/link";
import type { ReactNode } from "react";
import { signOutAction } from "@/app/dashboard/actions";
import type { SessionUser } from "@/server/auth/session";
import { NavLinks, type NavItem } from "./nav-links";

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

export function DashboardShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const staff = user.role === "staff";
  const root = staff ? "/dashboard/staff" : "/dashboard";
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <div className="shell-bar">
          <Link className="shell-brand" href={root}>
            Merchant Payments{staff ? " · Support" : ""}
          </Link>
          <NavLinks items={staff ? STAFF_NAV : MERCHANT_NAV} root={root} />
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
      </header>
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
