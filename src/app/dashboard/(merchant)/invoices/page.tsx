import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { InvoicesList } from "@/components/invoices/invoices-list";

export const metadata: Metadata = { title: "Invoices" };

export default async function InvoicesPage() {
  await guardPage("/dashboard/invoices");
  return <InvoicesList />;
}
