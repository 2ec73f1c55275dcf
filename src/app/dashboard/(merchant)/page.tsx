import type { Metadata } from "next";

export const metadata: Metadata = { title: "Overview" };

export default function OverviewPage() {
  return (
    <div className="page-header">
      <h1>Overview</h1>
    </div>
  );
}
