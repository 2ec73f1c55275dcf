import { InvalidEnvironmentError } from "@/env";
import { DataDirInUseError } from "@/server/db/data-dir-lock";
import { recordPeerAddresses } from "@/server/http/peer-address";
import { getRuntime } from "@/server/runtime";

// Before the first request: per-IP limits need each request's TCP peer (http/peer-address.ts).
recordPeerAddresses();

try {
  await getRuntime();
} catch (error) {
  // Refuse to serve with a broken configuration or an unreachable database: say why and stop.
  // eslint-disable-next-line no-console
  console.error(error instanceof InvalidEnvironmentError || error instanceof DataDirInUseError ? error.message : error);
  process.exit(1);
}
