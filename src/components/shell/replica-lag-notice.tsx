"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

/** How often the header asks how far behind the read replica is. */
const CHECK_EVERY_MS = 15_000;

/**
 * Lists and statistics come from a read replica when one is configured (docs/operations.md, "Pooler and replica").
 * When it is more than a few seconds behind, say so: what others changed may not show yet (your own changes do).
 */
export function ReplicaLagNotice() {
  const trpc = useTRPC();
  const lag = useQuery({ ...trpc.health.replicaLag.queryOptions(), refetchInterval: CHECK_EVERY_MS });
  const seconds = lag.data?.lagSeconds;
  if (seconds === null || seconds === undefined) return null;
  return (
    <p className="replica-lag-banner" role="status">
      Lists and statistics are about {seconds} s behind: changes made in the last {seconds} s by others may not show yet.
    </p>
  );
}
