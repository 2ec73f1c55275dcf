import { getEnv, InvalidEnvironmentError } from "@/env";
import { startBackgroundWork } from "@/server/background/start";
import { DataDirInUseError } from "@/server/db/data-dir-lock";
import { recordPeerAddresses } from "@/server/net/peer-address";
import { refuseBeforeNext } from "@/server/http/refuse-before-next";
import { rateLimitsFor } from "@/server/rate-limit/limits";
import { getRuntime } from "@/server/runtime";
import { startOtlpTracing } from "@/server/tracing/otlp";

// Before the first request: per-IP limits need each request's TCP peer (net/peer-address.ts), and TRACE, a path
// that is not valid percent-encoding, two Authorization headers or a cross-origin POST to a page are refused
// before Next.js builds a Request (http/refuse-before-next.ts), logged, counted and rate-limited like any request.
recordPeerAddresses();

try {
  refuseBeforeNext({
    trustedProxyHops: getEnv().TRUSTED_PROXY_HOPS,
    context: async () => {
      const runtime = await getRuntime();
      return { log: runtime.log, limits: rateLimitsFor(runtime), perIpPerSecond: runtime.env.RATE_LIMIT_PER_IP };
    },
  });
  // Traces only when a collector is configured: otherwise no SDK is loaded at all (docs/operations.md).
  const stopTracing = getEnv().OTEL_EXPORTER_OTLP_ENDPOINT ? await startOtlpTracing("merchant-payment-service") : null;
  const runtime = await getRuntime();
  if (stopTracing) runtime.onClose(stopTracing);
  // The inline worker: this process also delivers webhooks and runs the periodic jobs. WEBHOOK_WORKER=off leaves
  // both to `npm run worker` processes.
  if (runtime.env.WEBHOOK_WORKER === "inline") startBackgroundWork(runtime);
} catch (error) {
  // Refuse to serve with a broken configuration or an unreachable database: say why and stop.
  // eslint-disable-next-line no-console
  console.error(error instanceof InvalidEnvironmentError || error instanceof DataDirInUseError ? error.message : error);
  process.exit(1);
}
