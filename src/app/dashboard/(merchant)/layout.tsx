import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getDashboardSession } from "@/server/auth/current-session";
import { homeOf } from "@/server/auth/dashboard-routes";

/** A merchant's own pages: whoever may not open the overview (staff) starts at their own home. */
export default async function MerchantLayout({ children }: { children: ReactNode }) {
  const user = await getDashboardSession();
  if (!user) redirect("/login");
  // Staff start at their own home; each page checks the member's role for itself (auth/page-guard.ts).
  if (user.role !== "merchant") redirect(homeOf(user.access));
  return children;
}
