import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { ReconciliationPage } from "@/components/reconciliation/reconciliation-page";

export const metadata: Metadata = { title: "Reconciliation (support)" };

export default async function StaffReconciliationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await guardPage(`/dashboard/staff/merchants/${id}/reconciliation`);
  return <ReconciliationPage merchantId={id} />;
}
