import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { PaymentSearch } from "@/components/staff/payment-search";

export const metadata: Metadata = { title: "Payment search" };

export default async function StaffSearchPage() {
  await guardPage("/dashboard/staff");
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Payment search</h1>
          <p>Across every merchant. Open a payment to reconcile it, or its merchant to see their account read-only.</p>
        </div>
      </div>
      <PaymentSearch />
    </>
  );
}
