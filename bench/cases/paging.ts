import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { compare, ratio } from "../lib/compare";
import { config } from "../lib/config";
import { baseUrl, registerMerchant, routeExists, seedPayments, type BenchContext } from "../lib/context";
import { fmtSpread, percentile, median, round } from "../lib/stats";
import { deepCursor } from "./paging-cursor";

const KEYSET_COLUMNS = `*, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at`;
// The order the app uses (src/server/db/keyset.ts): it matches the (merchant_id, created_at DESC NULLS LAST,
// id DESC NULLS LAST) index drizzle-kit generates. Plain DESC means NULLS FIRST, which that index cannot serve.
const NEWEST_FIRST = "created_at desc nulls last, id desc nulls last";

/** Runs a query `iterations` times in a row; the median and p99 wall time in ms. */
async function timeQuery(run: () => Promise<unknown>, iterations: number) {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return { median: median(times), p99: percentile(times, 99) };
}

/**
 * Case 4: keyset paging with `pagingRows` payments for one merchant (seeded by one INSERT … SELECT
 * generate_series): the page at depth `pagingDepth` against page 1, in SQL and through the API.
 */
export async function casePaging(ctx: BenchContext) {
  const { report } = ctx;
  const rows = config.pagingRows;
  const depth = config.pagingDepth;
  report.section(`4. Keyset paging: page at depth ${depth.toLocaleString("en-US")} vs page 1, ${rows.toLocaleString("en-US")} payments of one merchant`);
  const merchant = await registerMerchant(ctx.next, "paging");
  const seedStarted = performance.now();
  await seedPayments(ctx.db, merchant.id, rows, "b");
  await ctx.db.query(sql`analyze payments`);
  report.text(`Seeded in ${round((performance.now() - seedStarted) / 1000, 1)} s (one INSERT … SELECT generate_series, then ANALYZE).`);

  const query = ctx.db.query;
  const [position] = await query<{ cursor_at: string; id: string }>(sql`
    select ${sql.raw(KEYSET_COLUMNS)} from payments where merchant_id = ${merchant.id}
    order by ${sql.raw(NEWEST_FIRST)} offset ${depth - 1} limit 1`);
  const iterations = config.quick ? 50 : 300;
  const page1 = await timeQuery(
    () => query(sql`select ${sql.raw(KEYSET_COLUMNS)} from payments where merchant_id = ${merchant.id}
              order by ${sql.raw(NEWEST_FIRST)} limit 21`),
    iterations,
  );
  const deep = await timeQuery(
    () => query(sql`select ${sql.raw(KEYSET_COLUMNS)} from payments where merchant_id = ${merchant.id}
              and (created_at, id) < (${position!.cursor_at}::timestamptz, ${position!.id})
              order by ${sql.raw(NEWEST_FIRST)} limit 21`),
    iterations,
  );
  const offset = await timeQuery(
    () => query(sql`select ${sql.raw(KEYSET_COLUMNS)} from payments where merchant_id = ${merchant.id}
              order by ${sql.raw(NEWEST_FIRST)} offset ${depth} limit 21`),
    config.quick ? 5 : 20,
  );
  const plainDesc = await timeQuery(
    () => query(sql`select ${sql.raw(KEYSET_COLUMNS)} from payments where merchant_id = ${merchant.id}
              order by created_at desc, id desc limit 21`),
    config.quick ? 5 : 10,
  );
  report.text("");
  report.text(`SQL through node-postgres (unnamed statements, as the app sends them), sequential, median of ${iterations} (OFFSET: fewer):`);
  report.table(
    ["query", "median ms", "p99 ms", "/ page 1"],
    [
      ["page 1 (keyset)", round(page1.median, 3), round(page1.p99, 3), 1],
      [`depth ${depth} (keyset, row comparison)`, round(deep.median, 3), round(deep.p99, 3), round(deep.median / page1.median, 2)],
      [`depth ${depth} (OFFSET, for contrast)`, round(offset.median, 3), round(offset.p99, 3), round(offset.median / page1.median, 1)],
      ["page 1, ORDER BY … DESC (NULLS FIRST: no index serves it: the list's first ORDER BY)", round(plainDesc.median, 3), round(plainDesc.p99, 3), round(plainDesc.median / page1.median, 1)],
    ],
  );
  const sqlRatio = deep.median / page1.median;
  report.target(`4. SQL: page at depth ${depth} within 1.5× of page 1 (time ratio)`, String(round(sqlRatio, 2)), sqlRatio <= 1.5);
  const data: Record<string, unknown> = { rows, depth, page1, deep, offset, plainDesc, sqlRatio };

  const cursor = await deepCursor(merchant.id, position!);
  if (cursor && (await routeExists(ctx.next, "GET", "/api/v1/payment", merchant.apiKey))) {
    const auth = { authorization: `Bearer ${merchant.apiKey}` };
    const url = `${baseUrl(ctx.next)}/api/v1/payment?limit=20`;
    const [first, deepPage] = await compare("paging HTTP", [
      { name: "GET /payment page 1", spec: () => ({ url, connections: config.connections, duration: config.duration, headers: auth }), targets: ctx.targets(ctx.next) },
      {
        name: `GET /payment at depth ${depth}`,
        spec: () => ({ url: `${url}&cursor=${encodeURIComponent(cursor)}`, connections: config.connections, duration: config.duration, headers: auth }),
        targets: ctx.targets(ctx.next),
      },
    ]);
    report.text("");
    report.text("Through the API (full stack, signed cursor at that depth):");
    report.variants([first!, deepPage!], ["server", "postgres"]);
    const httpRatio = ratio(first!, deepPage!);
    report.target(`4. HTTP: page at depth ${depth} within 1.5× of page 1 (page-1 req/s ÷ depth req/s)`, fmtSpread(httpRatio, 2), httpRatio.median <= 1.5);
    Object.assign(data, { http: { first, deep: deepPage, ratio: httpRatio } });
  } else {
    report.text("HTTP comparison skipped: GET /payment or its cursor signer is not in this build yet.");
  }
  report.data.paging = data;
}
