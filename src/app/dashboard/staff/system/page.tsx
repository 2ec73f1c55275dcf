import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { SystemView } from "@/components/staff/system/system-view";

export const metadata: Metadata = { title: "System" };

export default async function StaffSystemPage() {
  await guardPage("/dashboard/staff/system");
  return (
    <>
      <div className="page-header">
        <div>
          <h1>System</h1>
          <p>The webhook delivery queue, failing and slow endpoints, and the database pool. For Prometheus and alerts, see docs/operations.md.</p>
        </div>
      </div>
      <SystemView />
    </>
  );
}
