import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { ReconciliationPage } from "@/components/reconciliation/reconciliation-page";

export const metadata: Metadata = { title: "Reconciliation" };

export default async function MerchantReconciliationPage() {
  await guardPage("/dashboard/reconciliation");
  return <ReconciliationPage />;
}
