import { newId } from "@/lib/ids";
import type { Runtime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { maintainLogPartitions } from "@/server/services/events/partitions";
import { pruneExpiredEvents, PRUNE_BATCH } from "@/server/services/events/prune";
import { purgeExpiredIdempotencyKeys, PURGE_BATCH } from "@/server/services/idempotency/purge";
import { EXPIRE_BATCH, expireDueInvoices } from "@/server/services/invoices/expire-due";
import { CLAIM_EXPIRE_BATCH, expireRefundClaims } from "@/server/services/refunds/expire-claims";
import { pruneSignInRecords, SIGN_IN_PRUNE_BATCH } from "@/server/services/sessions/prune";
import type { BackgroundJob } from "./scheduler";

const asSystem = (runtime: Runtime) => createServiceContext(runtime, { type: "system" }, newId("request"));

/**
 * The periodic jobs, run by every process that runs background work (start.ts). Adding one is adding a line:
 * a service that handles one batch, safe to run in several processes at once (SKIP LOCKED or an idempotent delete).
 */
export const BACKGROUND_JOBS: readonly BackgroundJob[] = [
  // Often enough that an invoice expires within 5 s of `expiresAt` (docs/invoices.md); cheap when nothing is due (a partial index).
  { name: "invoice-expiry", everyMs: 1_000, batchSize: EXPIRE_BATCH, done: "invoices expired", run: (runtime) => expireDueInvoices({ ctx: asSystem(runtime), input: { limit: EXPIRE_BATCH } }) },
  // Unclaimed refund claim links past their time become `canceled` (docs/refunds.md); the claim page already reads them as expired.
  { name: "refund-claim-expiry", everyMs: 5_000, batchSize: CLAIM_EXPIRE_BATCH, done: "refund claims expired", run: (runtime) => expireRefundClaims({ ctx: asSystem(runtime), input: { limit: CLAIM_EXPIRE_BATCH } }) },
  // The logs' partitions (docs/operations.md, "Partitions and retention"): the coming week's made, the days past
  // WEBHOOK_EVENT_RETENTION_DAYS dropped whole. Run at start, then every ten minutes (a week ahead leaves room for failures).
  { name: "log-partitions", everyMs: 600_000, batchSize: Number.POSITIVE_INFINITY, done: "log partitions made or dropped", run: (runtime) => maintainLogPartitions(runtime.database.db, { now: runtime.now(), retentionDays: runtime.env.WEBHOOK_EVENT_RETENTION_DAYS }) },
  // What a dropped day left (events still being delivered then, rows of a default partition), row by row in short batches.
  { name: "event-retention", everyMs: 60_000, pauseMs: 50, batchSize: PRUNE_BATCH, done: "expired events pruned", run: (runtime) => pruneExpiredEvents(runtime.database.db, { now: runtime.now(), retentionDays: runtime.env.WEBHOOK_EVENT_RETENTION_DAYS }) },
  // Expired Idempotency-Keys are already ignored; deleting them only keeps the table small (docs/idempotency.md).
  // Sessions ended a month ago, spent sign-in challenges and reset links (docs/team-and-security.md, "Sessions").
  { name: "sign-in-prune", everyMs: 600_000, pauseMs: 50, batchSize: SIGN_IN_PRUNE_BATCH, done: "ended sessions and used sign-in links pruned", run: (runtime) => pruneSignInRecords({ ctx: asSystem(runtime), input: { batchSize: SIGN_IN_PRUNE_BATCH } }) },
  { name: "idempotency-key-purge", everyMs: 60_000, pauseMs: 50, batchSize: PURGE_BATCH, done: "expired idempotency keys purged", run: (runtime) => purgeExpiredIdempotencyKeys(runtime.database.db, runtime.now()) },
];

