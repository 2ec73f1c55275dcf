"use client";

import { useQuery } from "@tanstack/react-query";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { AuthenticatorCard } from "./authenticator-card";
import { PasskeysCard } from "./passkeys-card";
import { SessionsCard } from "./sessions-card";

const REQUIRED_BY = { team: "Your team requires a second factor.", staff_in_production: "Support staff must have a second factor." } as const;

/** The signed-in user's own sign-in security: second factors and sessions (merchants' users and staff alike). */
export function AccountSecurity() {
  const trpc = useTRPC();
  const security = useQuery(trpc.account.security.queryOptions());
  return (
    <>
      <QueryView query={security} what="your second factors">
        {(data) => (
          <>
            {data.requiredBy ? <p className="alert alert-warning">{REQUIRED_BY[data.requiredBy]} Keep at least one.</p> : null}
            <AuthenticatorCard security={data} />
            <PasskeysCard security={data} />
          </>
        )}
      </QueryView>
      <SessionsCard />
    </>
  );
}
