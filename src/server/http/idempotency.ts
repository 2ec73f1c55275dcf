import { createHash } from "node:crypto";
import { canonicalJson } from "@/lib/canonical-json";
import type { Runtime } from "@/server/runtime";
import type { ServiceContext } from "@/server/services/context";
import { ValidationError } from "@/server/services/errors";
import { scopedPath } from "@/server/services/idempotency/records";
import { runIdempotently as runService } from "@/server/services/idempotency/run";
import { problemBody } from "./problem";
import type { AnyRoute, Reply } from "./route";

/**
 * Idempotency-Key for every authenticated POST: the header is read here, and the handler runs inside the
 * idempotency service (services/idempotency/run.ts; decisions in docs/idempotency.md), which stores and
 * replays its answer; a final error is stored as its problem+json.
 */
export const IDEMPOTENCY_HEADER = "idempotency-key";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const DEFAULT_POLICY = { store: "final" } as const;

/**
 * The policy of a route whose answer shows a secret once (a new API key, an endpoint's signing secret): kept and
 * replayed without it (`secret: null`), never stored in plaintext (docs/idempotency.md).
 */
export const SECRET_SHOWN_ONCE = {
  store: "success",
  keep: (body: unknown) => ({ ...(body as Record<string, unknown>), secret: null }),
} as const;

/** The request's Idempotency-Key when the mechanism applies (a merchant's POST, not opted out), else null. */
export function idempotencyKeyOf(request: Request, route: AnyRoute, merchantId: string | undefined): string | null {
  if (request.method !== "POST" || !merchantId || route.idempotency === false) return null;
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationError([
      { path: `headers.${IDEMPOTENCY_HEADER}`, message: `must be 1–${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters` },
    ]);
  }
  return key;
}

/** Runs the handler at most once per (merchant, mode, method, path, key) and body; replays its stored answer after. */
export function runIdempotently(
  options: { runtime: Runtime; route: AnyRoute; request: Request; merchantId: string; livemode: boolean; key: string; body: unknown; requestId: string },
  /** Runs the handler; with `db`, on that transaction instead of the root database. */
  execute: (db?: ServiceContext["db"]) => Promise<Reply>,
): Promise<Reply> {
  const { runtime, route, request, requestId } = options;
  return runService(
    {
      db: runtime.database.db,
      log: runtime.log,
      now: runtime.now(),
      scope: { merchantId: options.merchantId, method: request.method, path: scopedPath(new URL(request.url).pathname, options.livemode), key: options.key },
      digest: createHash("sha256").update(canonicalJson(options.body ?? null)).digest("hex"),
      policy: route.idempotency || DEFAULT_POLICY,
      keep: route.idempotency ? route.idempotency.keep : undefined,
      errorAnswer: (error) => ({ status: error.status, body: problemBody(error.code, error.detail, requestId, error.errors, error.options.members) }),
    },
    execute,
  );
}
