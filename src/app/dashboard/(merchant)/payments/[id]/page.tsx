import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { PaymentDetailView } from "@/components/payments/payment-detail-view";

export const metadata: Metadata = { title: "Payment" };

export default async function PaymentPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ refund?: string }> }) {
  const { id } = await params;
  await guardPage(`/dashboard/payments/${id}`);
  return <PaymentDetailView id={id} refundNow={(await searchParams).refund === "1"} />;
}
