import { config } from "../lib/config";
import { baseUrl, type BenchContext } from "../lib/context";
import { runLoad } from "../lib/load";
import { median } from "../lib/stats";

const CONNECTIONS = 20;
const TARGET_P50_MS = 50;

/**
 * Case 9: the public checkout page `/pay/{invoiceId}` (docs/invoices.md), server-rendered first paint: the
 * HTML of one open invoice's page at 20 concurrent requests on the production build. Target p50 < 50 ms.
 */
export async function caseCheckout(ctx: BenchContext) {
  const { report } = ctx;
  report.section(`9. Checkout page first paint: GET /pay/{invoiceId}, ${CONNECTIONS} concurrent, production build`);
  const created = await fetch(`${baseUrl(ctx.next)}/api/v1/invoice`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ctx.merchant.apiKey}` },
    body: JSON.stringify({ amount: "24.50", currency: "EUR", description: "Bench invoice", expiresIn: 86_400 }),
  });
  if (created.status !== 201) throw new Error(`POST /invoice answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const url = `${baseUrl(ctx.next)}/pay/${id}`;
  const page = await fetch(url);
  if (page.status !== 200) throw new Error(`GET /pay/{id} answered ${page.status}`);

  await runLoad({ url, connections: CONNECTIONS, duration: config.warmup }, ctx.targets(ctx.next));
  const runs = [];
  for (let rep = 0; rep < config.reps; rep++) runs.push(await runLoad({ url, connections: CONNECTIONS, duration: config.duration }, ctx.targets(ctx.next)));
  report.table(
    ["run", "req/s", "p50 ms", "p99 ms", "non-2xx / errors", "CPU µs/req server"],
    runs.map((run, index) => [index + 1, Math.round(run.rps), run.p50, run.p99, `${run.non2xx} / ${run.errors}`, Math.round(run.cpu.server?.usPerRequest ?? NaN)]),
  );
  const p50 = median(runs.map((run) => run.p50));
  report.data.checkout = { runs, p50 };
  report.target(`checkout first paint p50 < ${TARGET_P50_MS} ms at ${CONNECTIONS} concurrent`, `${p50} ms`, p50 < TARGET_P50_MS && runs.every((run) => run.non2xx === 0));
}
