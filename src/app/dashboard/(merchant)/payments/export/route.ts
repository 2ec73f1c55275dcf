import { Readable } from "node:stream";
import { livemodeOfRequest } from "@/server/auth/dashboard-mode";
import { newId } from "@/lib/ids";
import { spreadsheetSafeCsv } from "@/lib/spreadsheet-csv";
import { getDashboardSession } from "@/server/auth/current-session";
import { getEnv } from "@/env";
import { isCrossSiteRequest } from "@/server/auth/same-origin";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError } from "@/server/services/errors";
import { listPayments } from "@/server/services/payments/list";
import { paymentSchema, type ListPaymentsInput } from "@/server/services/payments/schemas";

// GET /dashboard/payments/export – the signed-in merchant's payments matching the filters, as CSV,
// streamed page by page (keyset) so an export of any size holds one page in memory.

// The Payment's fields in the API's order, metadata (JSON text) last: a new field of the shape is a new column.
const COLUMNS = [...Object.keys(paymentSchema.shape).filter((field) => field !== "metadata"), "metadata"];
const FILTERS = ["status", "currency", "reference", "externalId", "q", "reconciled", "createdFrom", "createdTo"] as const;
const PAGE = 100;

export async function GET(request: Request) {
  if (isCrossSiteRequest(request, getEnv().TRUSTED_PROXY_HOPS)) return new Response("Cross-site requests are refused.", { status: 403 });
  const user = await getDashboardSession();
  if (!user || user.role !== "merchant" || !user.merchantId) {
    return new Response("Sign in as a merchant to export payments.", { status: 401 });
  }
  const runtime = await getRuntime();
  const ctx = createServiceContext(runtime, { type: "user", userId: user.id, merchantId: user.merchantId, livemode: livemodeOfRequest(request) }, newId("request"));
  const params = new URL(request.url).searchParams;
  const filters = Object.fromEntries(FILTERS.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : []))) as ListPaymentsInput;

  // Validate the filters (and the session's access) on the first page before answering 200.
  let first;
  try {
    first = await listPayments({ ctx, input: { ...filters, limit: PAGE } });
  } catch (error) {
    if (isServiceError(error)) return new Response(`Cannot export: ${error.detail}`, { status: error.status });
    throw error;
  }

  const csv = spreadsheetSafeCsv(COLUMNS);
  (async () => {
    let page = first;
    for (;;) {
      for (const payment of page.data) {
        const row = { ...payment, metadata: JSON.stringify(payment.metadata) };
        if (!csv.write(row)) await new Promise((resolve) => csv.once("drain", resolve));
      }
      if (!page.hasMore || !page.nextCursor) break;
      page = await listPayments({ ctx, input: { ...filters, limit: PAGE, cursor: page.nextCursor } });
    }
    csv.end();
  })().catch((error: unknown) => {
    runtime.log.error({ err: error, requestId: ctx.requestId }, "payments export failed");
    csv.destroy(error instanceof Error ? error : new Error("export failed"));
  });

  const day = runtime.now().toISOString().slice(0, 10);
  return new Response(Readable.toWeb(csv) as ReadableStream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="payments-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
}
