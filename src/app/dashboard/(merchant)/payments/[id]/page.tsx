import type { Metadata } from "next";
import { PaymentDetailView } from "@/components/payments/payment-detail-view";

export const metadata: Metadata = { title: "Payment" };

export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <PaymentDetailView id={id} />;
}
