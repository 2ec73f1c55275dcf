import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getDashboardSession } from "@/server/auth/current-session";

/** Merchant pages: staff have their own console. */
export default async function MerchantLayout({ children }: { children: ReactNode }) {
  const user = await getDashboardSession();
  if (!user) redirect("/login");
  if (user.role !== "merchant") redirect("/dashboard/staff");
  return children;
}
