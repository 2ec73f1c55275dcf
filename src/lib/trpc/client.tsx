"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/trpc/router";
import { signInAgainUrl } from "./sign-in-again";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** A call refused because the session has ended sends this tab to the sign-in page (sign-in-again.ts). */
function signInAgainWhenSessionEnded(error: unknown) {
  if (!isSessionEnded(error)) return;
  const to = signInAgainUrl(window.location);
  if (to) window.location.assign(to);
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
