import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { StaffPayment } from "@/components/staff/staff-payment";

export const metadata: Metadata = { title: "Payment (support)" };

export default async function StaffPaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await guardPage(`/dashboard/staff/payments/${id}`);
  return <StaffPayment id={id} />;
}
