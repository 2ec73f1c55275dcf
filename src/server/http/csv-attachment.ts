import { Readable } from "node:stream";
import { spreadsheetSafeCsv } from "@/lib/spreadsheet-csv";
import type { Runtime } from "@/server/runtime";

/**
 * A CSV download streamed as its rows are read: the dashboard's exports (payments, refunds, a reconciliation
 * report) hold one page of rows in memory whatever their size. The writer waits for the client to drain; a failure
 * after the 200 is logged and ends the download broken (never a file that looks complete).
 */
export function csvAttachment(input: {
  runtime: Runtime;
  requestId: string;
  columns: readonly string[];
  rows: AsyncIterable<Record<string, unknown>>;
  /** Without `.csv`; only word characters and `-` are kept. */
  filename: string;
}): Response {
  const csv = spreadsheetSafeCsv(input.columns);
  (async () => {
    for await (const row of input.rows) {
      if (!csv.write(row)) await new Promise((resolve) => csv.once("drain", resolve));
    }
    csv.end();
  })().catch((error: unknown) => {
    input.runtime.log.error({ err: error, requestId: input.requestId, export: input.filename }, "CSV export failed");
    csv.destroy(error instanceof Error ? error : new Error("export failed"));
  });
  return new Response(Readable.toWeb(csv) as ReadableStream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${input.filename.replace(/[^\w-]/g, "")}.csv"`,
      "cache-control": "no-store",
    },
  });
}

/** Every item of a keyset-paged list, from its first page (already read, so its errors could still be answered). */
export async function* keysetItems<T>(
  first: { data: T[]; hasMore: boolean; nextCursor: string | null },
  next: (cursor: string) => Promise<{ data: T[]; hasMore: boolean; nextCursor: string | null }>,
): AsyncIterable<T> {
  for (let page = first; ; page = await next(page.nextCursor!)) {
    yield* page.data;
    if (!page.hasMore || !page.nextCursor) return;
  }
}
