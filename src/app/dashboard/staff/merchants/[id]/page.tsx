import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { MerchantView } from "@/components/staff/merchant-view";

export const metadata: Metadata = { title: "Merchant (support)" };

export default async function StaffMerchantPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await guardPage(`/dashboard/staff/merchants/${id}`);
  return <MerchantView merchantId={id} />;
}
