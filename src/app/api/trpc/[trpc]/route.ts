import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getDashboardSession } from "@/server/auth/current-session";
import { livemodeOfRequest } from "@/server/auth/dashboard-mode";
import { getEnv } from "@/env";
import { isCrossSiteRequest } from "@/server/auth/same-origin";
import { getRuntime } from "@/server/runtime";
import { requestClient } from "@/server/net/request-client";
import { trpcResponseMeta } from "@/server/trpc/errors";
import { createTrpcContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/router";

// /api/trpc/* – the dashboard's API (session cookie auth), a thin adapter over the service layer.
async function handler(request: Request) {
  // The session cookie authenticates these: refuse requests made from other sites (CSRF).
  if (isCrossSiteRequest(request, getEnv().TRUSTED_PROXY_HOPS)) {
    return Response.json({ error: "Cross-site requests are refused." }, { status: 403 });
  }
  const runtime = await getRuntime();
  const session = await getDashboardSession();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => createTrpcContext(runtime, session, livemodeOfRequest(request), requestClient(request, runtime.env.TRUSTED_PROXY_HOPS)),
    responseMeta: trpcResponseMeta,
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") runtime.log.error({ err: error.cause ?? error, path }, "trpc error");
    },
  });
}

export { handler as GET, handler as POST };
