import type { Metadata } from "next";
import { PasswordForm } from "@/components/auth/password-form";
import { ProfileForm } from "@/components/settings/profile-form";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { password } = await searchParams;
  return (
    <>
      <div className="page-header">
        <h1>Settings</h1>
      </div>
      <section className="card">
        <ProfileForm />
      </section>
      <section className="card">
        <PasswordForm changed={password === "changed"} />
      </section>
    </>
  );
}
