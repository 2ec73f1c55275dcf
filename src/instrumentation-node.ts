import { InvalidEnvironmentError } from "@/env";
import { recordPeerAddresses } from "@/server/net/peer-address";
import { getRuntime } from "@/server/runtime";

// Before the first request: per-IP limits need each request's TCP peer (net/peer-address.ts).
recordPeerAddresses();

try {
  await getRuntime();
} catch (error) {
  // Refuse to serve with a broken configuration or an unreachable database: say why and stop.
  // eslint-disable-next-line no-console
  console.error(error instanceof InvalidEnvironmentError ? error.message : error);
  process.exit(1);
}
