"use client";

import { useQuery } from "@tanstack/react-query";
import type { Permission } from "@/server/auth/permissions";
import { useTRPC } from "@/lib/trpc/client";

/**
 * What the signed-in person may do here and now (`account.permissions`: their role's row of the permission
 * table, in the dashboard's mode). Components hide the buttons and forms it does not hold; the server refuses
 * them anyway. Until the answer is in, nothing is offered.
 */
export function usePermissions(): { can: (permission: Permission) => boolean; loaded: boolean } {
  const trpc = useTRPC();
  const query = useQuery(trpc.account.permissions.queryOptions(undefined, { staleTime: 30_000 }));
  const held = new Set(query.data ?? []);
  return { can: (permission) => held.has(permission), loaded: query.isSuccess };
}
