import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { getDashboardSession } from "@/server/auth/current-session";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  if (await getDashboardSession()) redirect("/dashboard");
  const callbackUrl = typeof params.callbackUrl === "string" ? params.callbackUrl : "/dashboard";
  const notice = params.error ? "Your session ended or could not be verified. Sign in again." : undefined;
  return (
    <div className="auth-card">
      <h1>Sign in</h1>
      <LoginForm callbackUrl={callbackUrl} notice={notice} />
    </div>
  );
}
