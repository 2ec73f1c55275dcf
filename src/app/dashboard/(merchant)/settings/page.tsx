import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { TeamSecondFactorCard } from "@/components/account/team-second-factor-card";
import { PasswordForm } from "@/components/auth/password-form";
import { PaymentMethodsForm } from "@/components/settings/payment-methods-form";
import { ProfileForm } from "@/components/settings/profile-form";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await guardPage("/dashboard/settings");
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
        <PaymentMethodsForm />
      </section>
      <TeamSecondFactorCard />
      {/* The signed-in person's own password: not offered to staff viewing the merchant (auth/view-as.ts). */}
      {user.role === "merchant" ? (
        <section className="card">
          <PasswordForm changed={password === "changed"} />
        </section>
      ) : null}
    </>
  );
}
