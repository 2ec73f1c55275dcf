import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getDashboardSession } from "@/server/auth/current-session";
import { homeOf } from "@/server/auth/dashboard-routes";
import { merchantSideOf } from "@/server/auth/view-as";
import { getRuntime } from "@/server/runtime";

/**
 * A merchant's own pages: its members', and a staff session's while it views the merchant (auth/view-as.ts).
 * Anyone else (staff without a grant) starts at their own home; each page checks the role for itself (auth/page-guard.ts).
 */
export default async function MerchantLayout({ children }: { children: ReactNode }) {
  const user = await getDashboardSession();
  if (!user) redirect("/login");
  if (!merchantSideOf(user, (await getRuntime()).now(), true)) redirect(homeOf(user.access));
  return children;
}
