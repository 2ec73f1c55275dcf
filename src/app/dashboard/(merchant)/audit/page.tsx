import type { Metadata } from "next";
import { MerchantAuditLog } from "@/components/audit/merchant-audit-log";
import { guardPage } from "@/server/auth/page-guard";

export const metadata: Metadata = { title: "Audit log" };

/** The merchant's audit log (needs `audit_log.read`: auth/dashboard-routes.ts). */
export default async function AuditLogPage() {
  await guardPage("/dashboard/audit");
  return <MerchantAuditLog />;
}
