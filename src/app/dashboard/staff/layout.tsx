import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getDashboardSession } from "@/server/auth/current-session";
import { dashboardAccess } from "@/server/auth/dashboard-routes";

/** The staff console: anyone who may not use it gets a plain 404, as if it did not exist. */
export default async function StaffLayout({ children }: { children: ReactNode }) {
  const user = await getDashboardSession();
  if (!user) redirect("/login");
  if (dashboardAccess(user.access, "/dashboard/staff").outcome !== "allowed") notFound();
  return children;
}
