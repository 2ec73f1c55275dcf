"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/trpc/router";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * A call refused because the session has ended (signed out in another tab, a password change elsewhere, a
 * copied cookie revoked: docs/dashboard.md, "Sessions") sends this tab to the sign-in page, back here after.
 */
function signInAgainWhenSessionEnded(error: unknown) {
  if (!isSessionEnded(error)) return;
  const here = window.location.pathname + window.location.search;
  window.location.assign(`/login?callbackUrl=${encodeURIComponent(here)}`);
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: signInAgainWhenSessionEnded }),
    mutationCache: new MutationCache({ onError: signInAgainWhenSessionEnded }),
    defaultOptions: { queries: { staleTime: 10_000, retry: (failures, error) => failures < 1 && !isSessionEnded(error) } },
  });
}

function isSessionEnded(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { httpStatus?: number } | undefined)?.httpStatus === 401;
}

export function TrpcProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: "/api/trpc", transformer: superjson })],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
