import type { Metadata } from "next";
import { MerchantAuditLog } from "@/components/audit/merchant-audit-log";

export const metadata: Metadata = { title: "Audit log" };

/** The merchant's audit log (needs `audit_log.read`: auth/dashboard-routes.ts). */
export default function AuditLogPage() {
  return <MerchantAuditLog />;
}
