import { getEnv, InvalidEnvironmentError } from "@/env";
import { DataDirInUseError } from "@/server/db/data-dir-lock";
import { recordPeerAddresses } from "@/server/net/peer-address";
import { refuseBeforeNext } from "@/server/http/refuse-before-next";
import { getRuntime } from "@/server/runtime";
import { startOtlpTracing } from "@/server/tracing/otlp";

// Before the first request: per-IP limits need each request's TCP peer (net/peer-address.ts), and TRACE, two
// Authorization headers or a cross-origin POST to a page are refused before Next.js builds a Request (http/refuse-before-next.ts).
recordPeerAddresses();

try {
  refuseBeforeNext({ trustedProxyHops: getEnv().TRUSTED_PROXY_HOPS });
  // Traces only when a collector is configured: otherwise no SDK is loaded at all (docs/operations.md).
  const stopTracing = getEnv().OTEL_EXPORTER_OTLP_ENDPOINT ? await startOtlpTracing("merchant-payment-service") : null;
  const runtime = await getRuntime();
  if (stopTracing) runtime.onClose(stopTracing);
} catch (error) {
  // Refuse to serve with a broken configuration or an unreachable database: say why and stop.
  // eslint-disable-next-line no-console
  console.error(error instanceof InvalidEnvironmentError || error instanceof DataDirInUseError ? error.message : error);
  process.exit(1);
}
