import { getEnv } from "@/env";
import { Readable } from "node:stream";
import { newId } from "@/lib/ids";
import { spreadsheetSafeCsv } from "@/lib/spreadsheet-csv";
import { getDashboardSession } from "@/server/auth/current-session";
import { livemodeOfRequest } from "@/server/auth/dashboard-mode";
import { reconciliationActor } from "@/server/auth/reconciliation-actor";
import { isCrossSiteRequest } from "@/server/auth/same-origin";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
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
  const actor = reconciliationActor(await getDashboardSession(), new URL(request.url).searchParams.get("merchantId"), livemodeOfRequest(request));
  if (!actor) return new Response("Sign in to export a reconciliation report.", { status: 401 });
  const runtime = await getRuntime();
  const ctx = createServiceContext(runtime, actor, newId("request"));
  const { id } = await context.params;
  let pages;
  try {
    pages = await exportReconciliationLines({ ctx, input: { id } });
  } catch (error) {
    if (isServiceError(error)) return new Response(`Cannot export: ${error.detail}`, { status: error.status });
    throw error;
  }

  const csv = spreadsheetSafeCsv(COLUMNS);
  (async () => {
    for await (const page of pages) {
      for (const line of page) {
        if (!csv.write(line)) await new Promise((resolve) => csv.once("drain", resolve));
      }
    }
    csv.end();
  })().catch((error: unknown) => {
    runtime.log.error({ err: error, requestId: ctx.requestId }, "reconciliation export failed");
    csv.destroy(error instanceof Error ? error : new Error("export failed"));
  });

  return new Response(Readable.toWeb(csv) as ReadableStream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="reconciliation-${id.replace(/[^\w-]/g, "")}.csv"`,
      "cache-control": "no-store",
    },
  });
}
