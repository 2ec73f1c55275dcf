import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getDashboardSession } from "@/server/auth/current-session";

/** The staff console: anyone else gets a plain 404, as if it did not exist. */
export default async function StaffLayout({ children }: { children: ReactNode }) {
  const user = await getDashboardSession();
  if (!user) redirect("/login");
  if (user.role !== "staff") notFound();
  return children;
}
