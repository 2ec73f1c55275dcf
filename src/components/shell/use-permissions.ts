"use client";

import { useQuery } from "@tanstack/react-query";
import type { AnyProcedure } from "@trpc/server";
import type { Permission } from "@/server/auth/permissions";
import type { AppRouter } from "@/server/trpc/router";
import { useTRPC } from "@/lib/trpc/client";

type PathsOf<Record, Prefix extends string = ""> = {
  [Key in keyof Record & string]: Record[Key] extends AnyProcedure ? `${Prefix}${Key}` : PathsOf<Record[Key], `${Prefix}${Key}.`>;
}[keyof Record & string];

/** A procedure of the app router by its path, as `webhooks.retry` (checked against the router's type). */
export type ProcedurePath = PathsOf<AppRouter["_def"]["record"]>;

/**
 * What the signed-in person may do here and now. `mayCall(path)`: the procedure an action calls lets them through
 * (`access.procedures`: the server reads each procedure's declared permission and checks it against their role's
 * row of the permission table, in the dashboard's mode), so each button asks about the procedure it calls and no
 * permission name is typed again here. `can(permission)`: the row itself (`account.permissions`), for what is not
 * one procedure. Until the answers are in, nothing is offered; the server refuses the rest anyway.
 */
export function usePermissions(): { can: (permission: Permission) => boolean; mayCall: (path: ProcedurePath) => boolean; loaded: boolean } {
  const trpc = useTRPC();
  const permissions = useQuery(trpc.account.permissions.queryOptions(undefined, { staleTime: 30_000 }));
  const procedures = useQuery(trpc.access.procedures.queryOptions(undefined, { staleTime: 30_000 }));
  const held = new Set(permissions.data ?? []);
  const callable = new Set(procedures.data ?? []);
  return { can: (permission) => held.has(permission), mayCall: (path) => callable.has(path), loaded: permissions.isSuccess && procedures.isSuccess };
}
