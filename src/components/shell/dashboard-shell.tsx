import Link from "next/link";
import type { ReactNode } from "react";
import { signOutAction } from "@/app/dashboard/actions";
import { homeOf, navigationOf } from "@/server/auth/dashboard-routes";
import type { Role } from "@/server/auth/permissions";
import { MerchantSwitcher } from "./merchant-switcher";
import { NavLinks } from "./nav-links";
import { ReplicaLagNotice } from "./replica-lag-notice";
import { TestModeSwitch } from "./test-mode-switch";
import { ViewAsBanner, type ViewAsBannerProps } from "./view-as-banner";
import { viewAsHome, viewAsNavigation } from "@/server/auth/view-as";

/**
 * `testMode`: the merchant's test-mode switch is on (docs/test-mode.md); staff always see live data. `viewing`: a
 * staff session views this merchant read-only (auth/view-as.ts): the merchant's pages it may open, and the banner.
 */
export function DashboardShell({
  user,
  testMode,
  viewing = null,
  children,
}: {
  user: { email: string; role: "merchant" | "staff"; access: Role };
  testMode: boolean;
  viewing?: ViewAsBannerProps | null;
  children: ReactNode;
}) {
  const staff = user.role === "staff";
  const root = viewing ? viewAsHome() : homeOf(user.access);
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
          <NavLinks items={viewing ? viewAsNavigation() : navigationOf(user.access)} root={root} />
          {staff ? null : <MerchantSwitcher />}
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
        {viewing ? <ViewAsBanner {...viewing} /> : null}
        <ReplicaLagNotice />
      </header>
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
