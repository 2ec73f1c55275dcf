import type { Metadata } from "next";
import { PasswordForm } from "@/components/auth/password-form";

export const metadata: Metadata = { title: "Account" };

export default async function StaffAccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { password } = await searchParams;
  return (
    <>
      <div className="page-header">
        <h1>Account</h1>
      </div>
      <section className="card">
        <PasswordForm changed={password === "changed"} />
      </section>
    </>
  );
}
