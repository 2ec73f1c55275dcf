import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { getEnv } from "@/env";
import { mailEnabled } from "@/server/services/email/send-mail";

export const metadata: Metadata = { title: "Reset your password" };
// Read per request: whether mail is configured is the running server's setting, not the build's.
export const dynamic = "force-dynamic";

export default function ForgotPasswordPage() {
  return (
    <div className="auth-card">
      <h1>Reset your password</h1>
      <ForgotPasswordForm mailOn={mailEnabled(getEnv())} />
    </div>
  );
}
