import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import "@/components/dashboard.css";
import { DashboardShell } from "@/components/shell/dashboard-shell";
import { TrpcProviders } from "@/lib/trpc/client";
import { getDashboardSession } from "@/server/auth/current-session";
import { dashboardLivemode } from "@/server/auth/dashboard-mode";
import { viewedMerchant } from "@/server/auth/page-admission";
import { getRuntime } from "@/server/runtime";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await getDashboardSession();
  if (!user) redirect("/login?callbackUrl=/dashboard");
  const runtime = await getRuntime();
  // A staff session viewing a merchant read-only (docs/team-and-security.md): the banner, and the merchant's pages.
  const viewing = await viewedMerchant(runtime, user);
  return (
    <TrpcProviders>
      <DashboardShell user={user} testMode={!(await dashboardLivemode())} viewing={viewing ? { ...viewing, now: runtime.now().toISOString() } : null}>
        {children}
      </DashboardShell>
    </TrpcProviders>
  );
}
