import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { RefundsList } from "@/components/refunds/refunds-list";

export const metadata: Metadata = { title: "Refunds" };

export default async function RefundsPage() {
  await guardPage("/dashboard/refunds");
  return <RefundsList />;
}
