import type { Metadata } from "next";

export const metadata: Metadata = { title: "Payment search" };

export default function StaffSearchPage() {
  return (
    <div className="page-header">
      <h1>Payment search</h1>
    </div>
  );
}
