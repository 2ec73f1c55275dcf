import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { AuditLog } from "@/components/staff/audit-log";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await guardPage("/dashboard/staff/audit");
  const { merchantId } = await searchParams;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Audit log</h1>
          <p>Every staff action, sign-in and credential change, newest first.</p>
        </div>
      </div>
      <AuditLog initialMerchantId={typeof merchantId === "string" ? merchantId : undefined} />
    </>
  );
}
