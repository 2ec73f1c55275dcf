import { InvalidEnvironmentError } from "@/env";
import { getRuntime } from "@/server/runtime";

try {
  await getRuntime();
} catch (error) {
  // Refuse to serve with a broken configuration or an unreachable database: say why and stop.
  // eslint-disable-next-line no-console
  console.error(error instanceof InvalidEnvironmentError ? error.message : error);
  process.exit(1);
}
