import type { Metadata } from "next";
import { MerchantDirectory } from "@/components/staff/merchant-directory";

export const metadata: Metadata = { title: "Merchants" };

export default function MerchantsPage() {
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
