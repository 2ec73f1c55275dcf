"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { formatDate } from "@/components/ui/format";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { useTRPC } from "@/lib/trpc/client";
import type { OwnSession } from "./types";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** A browser's User-Agent in a few words ("Firefox on macOS"), for recognising one's devices. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrom(e|ium)\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : "Browser";
  const system = /iPhone|iPad/.test(userAgent) ? "iOS" : /Android/.test(userAgent) ? "Android" : /Mac OS X|Macintosh/.test(userAgent) ? "macOS" : /Windows/.test(userAgent) ? "Windows" : /Linux/.test(userAgent) ? "Linux" : "";
  return system ? `${browser} on ${system}` : browser;
}

/** The user's live sessions with device, IP and last use; sign out one, or all the others. */
export function SessionsCard() {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const list = useQuery(trpc.account.sessions.queryOptions());
  const refresh = () => refreshAfterWrite(trpc.account.sessions.queryKey());
  const endOne = useMutation(trpc.account.endSession.mutationOptions({ onSuccess: refresh }));
  const endOthers = useMutation(trpc.account.endOtherSessions.mutationOptions({ onSuccess: refresh }));
  const error = endOne.error ?? endOthers.error;
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error.message}
        </p>
      ) : null}
      <QueryView query={list} what="sessions">
        {(sessions: OwnSession[]) => (
          <>
            <TableWrap label="Your sessions">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Device</th>
                    <th scope="col">IP</th>
                    <th scope="col">Signed in</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <span className="visually-hidden">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {sessions.map((session) => (
                    <tr key={session.id}>
                      <td title={session.userAgent ?? undefined}>
                        {deviceOf(session.userAgent)} {session.current ? <strong>(this device)</strong> : null}
                      </td>
                      <td>{session.ip ?? "—"}</td>
                      <td>{formatDate(session.createdAt)}</td>
                      <td>{formatDate(session.lastSeenAt)}</td>
                      <td>
                        {session.current ? null : (
                          <button type="button" className="btn btn-small" onClick={() => endOne.mutate({ id: session.id })} disabled={endOne.isPending}>
                            End session
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            {sessions.length > 1 ? (
              <button type="button" className="btn" onClick={() => endOthers.mutate()} disabled={endOthers.isPending}>
                End all other sessions
              </button>
            ) : null}
          </>
        )}
      </QueryView>
    </section>
  );
}
