"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { usePermissions } from "@/components/shell/use-permissions";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** The merchant's sign-in policy: require a second factor of every user (those without one set it up at next sign-in). */
export function TeamSecondFactorCard() {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const policy = useQuery(trpc.merchants.secondFactorPolicy.queryOptions());
  // Only who may call its procedure (owners: `team.ownership`) sets it; others see it.
  const owns = usePermissions().mayCall("merchants.setSecondFactorPolicy");
  const set = useMutation(
    trpc.merchants.setSecondFactorPolicy.mutationOptions({ onSuccess: () => refreshAfterWrite(trpc.merchants.secondFactorPolicy.queryKey()) }),
  );
  return (
    <section className="card" aria-labelledby="team-2fa-heading">
      <h2 id="team-2fa-heading">Sign-in security</h2>
      {set.error ? (
        <p className="alert alert-error" role="alert">
          {set.error.message}
        </p>
      ) : null}
      <QueryView query={policy} what="the sign-in policy">
        {({ required }) => (
          <label className="checkbox">
            <input type="checkbox" data-procedure={owns ? "merchants.setSecondFactorPolicy" : undefined} checked={required} disabled={set.isPending || !owns} onChange={(event) => set.mutate({ required: event.target.checked })} />{" "}
            Require a second factor (authenticator app or passkey) for every user of this account. Users without one set it up at their next sign-in.
          </label>
        )}
      </QueryView>
    </section>
  );
}
