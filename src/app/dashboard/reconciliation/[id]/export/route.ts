import { getEnv } from "@/env";
import { newId } from "@/lib/ids";
import { getDashboardSession } from "@/server/auth/current-session";
import { livemodeOfRequest } from "@/server/auth/dashboard-mode";
import { reconciliationActor } from "@/server/auth/reconciliation-actor";
import { isCrossSiteRequest } from "@/server/auth/same-origin";
import { csvAttachment } from "@/server/http/csv-attachment";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { requestClient } from "@/server/net/request-client";
import { isServiceError } from "@/server/services/errors";
import { exportReconciliationLines } from "@/server/services/reconciliations/export-lines";

// GET /dashboard/reconciliation/{id}/export – a report's lines as CSV, streamed a page at a time.
// Staff add `?merchantId=`.

const COLUMNS = [
  "lineNumber", "status", "reason", "externalId", "reference", "fileAmount", "ledgerAmount", "currency", "ledgerCurrency",
  "fee", "settledAt", "paymentId", "resolvedAt", "resolutionNote",
] as const;

export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  if (isCrossSiteRequest(request, getEnv().TRUSTED_PROXY_HOPS)) return new Response("Cross-site requests are refused.", { status: 403 });
  const actor = reconciliationActor(await getDashboardSession(), new URL(request.url).searchParams.get("merchantId"), livemodeOfRequest(request), "read");
  if (actor === "forbidden") return new Response("Your role may not export reconciliation reports.", { status: 403 });
  if (!actor) return new Response("Sign in to export a reconciliation report.", { status: 401 });
  const runtime = await getRuntime();
  const ctx = createServiceContext(runtime, actor, newId("request"), requestClient(request, runtime.env.TRUSTED_PROXY_HOPS));
  const { id } = await context.params;
  let pages;
  try {
    pages = await exportReconciliationLines({ ctx, input: { id } });
  } catch (error) {
    if (isServiceError(error)) return new Response(`Cannot export: ${error.detail}`, { status: error.status });
    throw error;
  }

  const lines = async function* () {
    for await (const page of pages) yield* page;
  };
  return csvAttachment({ runtime, requestId: ctx.requestId, columns: COLUMNS, rows: lines(), filename: `reconciliation-${id}` });
}
