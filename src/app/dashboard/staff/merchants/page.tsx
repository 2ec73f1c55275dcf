import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { MerchantDirectory } from "@/components/staff/merchant-directory";

export const metadata: Metadata = { title: "Merchants" };

export default async function MerchantsPage() {
  await guardPage("/dashboard/staff/merchants");
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Merchants</h1>
          <p>Every merchant, newest first. Open one to see their account read-only. Listing is written to the audit log.</p>
        </div>
      </div>
      <MerchantDirectory />
    </>
  );
}
