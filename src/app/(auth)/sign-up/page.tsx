import type { Metadata } from "next";
import { SignUpForm } from "@/components/auth/sign-up-form";

export const metadata: Metadata = { title: "Create a merchant account" };

// No redirect for a signed-in visitor here: signing up signs the new merchant in, and this page must keep
// showing the new credentials after that.
export default function SignUpPage() {
  return (
    <div className="auth-card">
      <SignUpForm />
    </div>
  );
}
