import { AccountSecurity } from "@/components/account/account-security";
import { PasswordForm } from "@/components/auth/password-form";

/**
 * The signed-in person's own account, the same for a merchant's member and for staff: second factors, sessions
 * and password (docs/team-and-security.md). `?password=changed` after a password change says so.
 */
export async function AccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { password } = await searchParams;
  return (
    <>
      <div className="page-header">
        <h1>Account</h1>
      </div>
      <AccountSecurity />
      <section className="card">
        <PasswordForm changed={password === "changed"} />
      </section>
    </>
  );
}
