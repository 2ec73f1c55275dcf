import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import "@/components/dashboard.css";
import { DashboardShell } from "@/components/shell/dashboard-shell";
import { TrpcProviders } from "@/lib/trpc/client";
import { getDashboardSession } from "@/server/auth/current-session";
import { dashboardLivemode } from "@/server/auth/dashboard-mode";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await getDashboardSession();
  if (!user) redirect("/login?callbackUrl=/dashboard");
  return (
    <TrpcProviders>
      <DashboardShell user={user} testMode={!(await dashboardLivemode())}>
        {children}
      </DashboardShell>
    </TrpcProviders>
  );
}
