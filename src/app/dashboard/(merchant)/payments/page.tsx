import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { PaymentsList } from "@/components/payments/payments-list";

export const metadata: Metadata = { title: "Payments" };

export default async function PaymentsPage() {
  await guardPage("/dashboard/payments");
  return <PaymentsList />;
}
