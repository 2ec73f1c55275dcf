import type { Metadata } from "next";
import { PasswordForm } from "@/components/auth/password-form";

export const metadata: Metadata = { title: "Account" };

export default function StaffAccountPage() {
  return (
    <>
      <div className="page-header">
        <h1>Account</h1>
      </div>
      <section className="card">
        <PasswordForm />
      </section>
    </>
  );
}
