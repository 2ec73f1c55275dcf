import { config } from "../lib/config";
import { baseUrl, type BenchContext } from "../lib/context";
import { runLoad, type LoadSpec } from "../lib/load";
import { median } from "../lib/stats";

const CONNECTIONS = 20;
const TARGET_P50_MS = 50;

/**
 * Case 9: the public checkout page `/pay/{invoiceId}` (docs/invoices.md), server-rendered first paint: the
 * HTML of one open invoice's page at 20 concurrent requests on the production build. Target p50 < 50 ms.
 * The merchant publishes a bank transfer and a processor link, so the page carries its GiroCode QR (SVG) and
 * every method's values, as a real one does.
 *
 * Each request comes from an address of its own (X-Forwarded-For; the bench server trusts one proxy hop): the
 * page is limited to 120 loads a minute per payer IP (docs/invoices.md), and a crowd of payers, not one address
 * reloading, is what first paint is about. From one address the run would measure the limiter's 429 page.
 */
export async function caseCheckout(ctx: BenchContext) {
  const { report } = ctx;
  report.section(`9. Checkout page first paint: GET /pay/{invoiceId}, ${CONNECTIONS} concurrent, production build`);
  const methods = await fetch(`${baseUrl(ctx.next)}/api/v1/merchant/${ctx.merchant.id}/payment-methods`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${ctx.merchant.apiKey}` },
    body: JSON.stringify({
      methods: [
        { type: "bank_transfer", accountHolder: "Bench Coffee GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX" },
        { type: "link", label: "Pay with PayPal", url: "https://paypal.example/bench" },
      ],
    }),
  });
  if (methods.status !== 200) throw new Error(`PUT /merchant/{id}/payment-methods answered ${methods.status}: ${await methods.text()}`);
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
  if (!(await page.text()).includes("<svg")) throw new Error("the checkout page carries no QR code");

  let payer = 0;
  const setupRequest = (request: Parameters<NonNullable<LoadSpec["setupRequest"]>>[0]) => {
    payer++;
    return { ...request, headers: { ...request.headers, "x-forwarded-for": `10.${(payer >> 16) & 255}.${(payer >> 8) & 255}.${payer & 255}` } };
  };
  await runLoad({ url, connections: CONNECTIONS, duration: config.warmup, setupRequest }, ctx.targets(ctx.next));
  const runs = [];
  for (let rep = 0; rep < config.reps; rep++) runs.push(await runLoad({ url, connections: CONNECTIONS, duration: config.duration, setupRequest }, ctx.targets(ctx.next)));
  report.table(
    ["run", "req/s", "p50 ms", "p99 ms", "non-2xx / errors", "CPU µs/req server"],
    runs.map((run, index) => [index + 1, Math.round(run.rps), run.p50, run.p99, `${run.non2xx} / ${run.errors}`, Math.round(run.cpu.server?.usPerRequest ?? NaN)]),
  );
  const p50 = median(runs.map((run) => run.p50));
  report.data.checkout = { runs, p50 };
  report.target(`checkout first paint p50 < ${TARGET_P50_MS} ms at ${CONNECTIONS} concurrent`, `${p50} ms`, p50 < TARGET_P50_MS && runs.every((run) => run.non2xx === 0));
}
