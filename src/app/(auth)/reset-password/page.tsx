import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";

// The link's token is in the query: no Referer leaves this page with it (links to other sites, loaded assets).
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  return (
    <div className="auth-card">
      <h1>Choose a new password</h1>
      <ResetPasswordForm token={typeof token === "string" ? token : ""} />
    </div>
  );
}
