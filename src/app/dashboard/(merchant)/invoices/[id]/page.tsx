import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { InvoiceDetailView } from "@/components/invoices/invoice-detail-view";

export const metadata: Metadata = { title: "Invoice" };

export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await guardPage(`/dashboard/invoices/${id}`);
  return <InvoiceDetailView id={id} />;
}
