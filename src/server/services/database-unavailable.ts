import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "@/server/db/unavailable";
import { ServiceError } from "./errors";

/**
 * The 503 a caller gets when the database cannot be reached (db/unavailable.ts says which errors mean that),
 * for both adapters: REST answers it as problem+json, tRPC as SERVICE_UNAVAILABLE. Undefined for any other error.
 */
export function databaseUnavailableError(error: unknown): ServiceError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return new ServiceError("service_unavailable", "The database is unavailable; retry shortly.", {
    headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}
