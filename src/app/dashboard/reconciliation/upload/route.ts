import { getEnv } from "@/env";
import { newId } from "@/lib/ids";
import { getDashboardSession } from "@/server/auth/current-session";
import { livemodeOfRequest } from "@/server/auth/dashboard-mode";
import { reconciliationActor } from "@/server/auth/reconciliation-actor";
import { isCrossSiteRequest } from "@/server/auth/same-origin";
import { ClientClosedRequestError, streamedBody } from "@/server/http/body";
import { getRuntime } from "@/server/runtime";
import { requestClient } from "@/server/net/request-client";
import { createServiceContext, noteWrite } from "@/server/services/create-context";
import { isServiceError } from "@/server/services/errors";
import { createReconciliation } from "@/server/services/reconciliations/create";
import { saveReconciliationMapping } from "@/server/services/reconciliations/mapping";
import { MAX_FILE_BYTES, type ColumnMapping } from "@/server/services/reconciliations/schemas";
import { IDEMPOTENCY_KEY, once } from "@/server/trpc/submission";

// POST /dashboard/reconciliation/upload – the dashboard's upload of a settlement file: the raw text/csv body
// streamed to the same verb as REST (tRPC would buffer it as JSON), with the column mapping the user chose
// in `?mapping=` (JSON), remembered for the merchant once the file has been read. Staff add `?merchantId=`.

export async function POST(request: Request) {
  if (isCrossSiteRequest(request, getEnv().TRUSTED_PROXY_HOPS)) return problem(403, "forbidden", "Cross-site requests are refused.");
  const params = new URL(request.url).searchParams;
  const actor = reconciliationActor(await getDashboardSession(), params.get("merchantId"), livemodeOfRequest(request), "write");
  if (actor === "forbidden") return problem(403, "forbidden", "Your role may not do this: it needs the reconciliation.write permission.");
  if (!actor) return problem(401, "unauthenticated", "Sign in as a merchant, or as staff with a merchant chosen.");
  const runtime = await getRuntime();
  const ctx = createServiceContext(runtime, actor, newId("request"), requestClient(request, runtime.env.TRUSTED_PROXY_HOPS));
  try {
    const mapping = readMapping(params.get("mapping"));
    const key = request.headers.get("idempotency-key");
    if (key !== null && !IDEMPOTENCY_KEY.safeParse(key).success) {
      return problem(400, "validation_failed", "The Idempotency-Key header is malformed.", [{ path: "headers.idempotency-key", message: "must be 1–255 visible ASCII characters" }]);
    }
    const window = { ...(params.get("from") ? { from: params.get("from")! } : {}), ...(params.get("to") ? { to: params.get("to")! } : {}) };
    const upload = async (service: typeof ctx) => {
      const file = streamedBody(request, { mediaType: "text/csv", maxBytes: MAX_FILE_BYTES });
      const report = await createReconciliation({ ctx: service, input: { file, window, mapping } });
      if (mapping) await saveReconciliationMapping({ ctx: service, input: mapping });
      return report;
    };
    // Once per form submission (the form's Idempotency-Key): a double click or a retried upload answers the
    // report the first made. The file is streamed, so what identifies the submission is its settings and size.
    const settings = { merchantId: params.get("merchantId"), mapping: params.get("mapping"), window, bytes: request.headers.get("content-length") };
    const report = key === null ? await upload(ctx) : await once({ runtime, service: ctx }, "reconciliation.upload", { idempotencyKey: key, input: settings }, upload);
    return Response.json(report, { status: 201, headers: { "cache-control": "no-store" } });
  } catch (error) {
    if (isServiceError(error)) return problem(error.status, error.code, error.detail, error.errors);
    if (error instanceof ClientClosedRequestError) return new Response(null, { status: 499 });
    runtime.log.error({ err: error, requestId: ctx.requestId }, "reconciliation upload failed");
    return problem(500, "internal_error", "Something went wrong on our side.");
  } finally {
    noteWrite(runtime, actor); // the report and its lines are read next, from the primary until a replica has them
  }
}

function readMapping(text: string | null): ColumnMapping | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as ColumnMapping;
  } catch {
    // The verb validates the shape; text that is not JSON at all is handed over as a non-object.
    return text as never;
  }
}

function problem(status: number, code: string, detail: string, errors?: unknown) {
  return Response.json({ status, code, detail, ...(errors ? { errors } : {}) }, { status, headers: { "content-type": "application/problem+json" } });
}
