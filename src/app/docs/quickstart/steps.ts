/**
 * The quickstart, as data: /docs/quickstart renders these steps and e2e/api/quickstart.spec.ts runs them, code
 * and commands verbatim, against the running service. Change a step here and the test walks the new one.
 */
export interface QuickstartStep {
  id: string;
  title: string;
  /** Prose before the code (plain text; `code` spans in backticks). */
  intro: string;
  /** A shell command, or a TypeScript file to save as `file` and start with `run`. */
  code: { lang: "sh"; source: string } | { lang: "ts"; file: string; source: string; run: string };
  /** What you should see. */
  outcome: string;
}

export const QUICKSTART_EMAIL = "you@example.com";
export const QUICKSTART_RECEIVER_PORT = 4000;
/** Where `npm run dev` serves the service; the first step exports it as MPS_API_URL for the others. */
export const QUICKSTART_API_URL = "http://localhost:3000";
/** The reader's own folder for their receiver and payment code, beside the checkout (their project, not ours). */
export const QUICKSTART_PROJECT = "../my-shop";

export const quickstartSteps: QuickstartStep[] = [
  {
    id: "register",
    title: "1. Register",
    intro:
      "Start the service in a checkout of this repository (`npm install && npm run dev`; it keeps its data in `./.data`), " +
      "then, in another terminal, tell the next steps where it runs (`MPS_API_URL`) and create your merchant account. " +
      "The answer holds your API key and webhook secret, shown this once.",
    code: {
      lang: "sh",
      source: `export MPS_API_URL=${QUICKSTART_API_URL}
curl -s -X POST "$MPS_API_URL/api/v1/merchant/register" \\
  -H "Content-Type: application/json" \\
  -d '{"name": "My Shop", "email": "${QUICKSTART_EMAIL}", "password": "a long password only I know"}'`,
    },
    outcome: "`201` with `apiKey` (`sk_live_…`): `export MPS_API_KEY=sk_live_…` for the next steps.",
  },
  {
    id: "listen",
    title: "2. Forward your events to your laptop",
    intro:
      "In a checkout of this service, hold a stream of your events and forward each to a local URL, signed as a " +
      "webhook. No public URL needed.",
    code: { lang: "sh", source: `npm run listen -- --forward-to http://localhost:${QUICKSTART_RECEIVER_PORT}/hook` },
    outcome: "`Forwarding events to … Signing secret: whsec_…`: `export WEBHOOK_SECRET=whsec_…` for the receiver.",
  },
  {
    id: "sdk",
    title: "3. A folder for your code, with the SDK",
    intro:
      "The SDK is not on the npm registry: pack it from the checkout (`npm pack` makes a `.tgz` of `sdk/`) and install " +
      "that file in a folder of your own (an ES module package), with `tsx` to run TypeScript. Run this in the checkout, " +
      "in a third terminal.",
    code: {
      lang: "sh",
      source: `mkdir -p ${QUICKSTART_PROJECT} && npm pack ./sdk --pack-destination ${QUICKSTART_PROJECT}
cd ${QUICKSTART_PROJECT} && npm init -y > /dev/null && npm pkg set type=module && npm install tsx ./merchant-payments-sdk-*.tgz`,
    },
    outcome: "`added … packages`: `@merchant-payments/sdk` is in your folder's `package.json`. Steps 4 and 5 run there.",
  },
  {
    id: "receive",
    title: "4. Receive and verify webhooks",
    intro:
      "In your folder, a receiver that verifies each webhook with the SDK before trusting it (with `WEBHOOK_SECRET` " +
      "from step 2 exported). Verify the raw body: a re-serialised object no longer matches its signature.",
    code: {
      lang: "ts",
      file: "receiver.ts",
      source: `import { createServer } from "node:http";
import { verifyWebhook } from "@merchant-payments/sdk";

createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  try {
    const event = verifyWebhook(Buffer.concat(chunks), request.headers, process.env.WEBHOOK_SECRET!);
    console.log("verified", event.type, event.id);
    response.writeHead(204).end();
  } catch {
    response.writeHead(400).end();
  }
}).listen(${QUICKSTART_RECEIVER_PORT}, () => console.log("receiving on port ${QUICKSTART_RECEIVER_PORT}"));`,
      run: "npx tsx receiver.ts",
    },
    outcome: "`receiving on port 4000`, then one `verified …` line per event.",
  },
  {
    id: "pay",
    title: "5. Your first payment",
    intro: "In your folder, with `MPS_API_URL` and `MPS_API_KEY` exported: create an invoice for an order and record its payment with the typed client.",
    code: {
      lang: "ts",
      file: "pay.ts",
      source: `import { createClient } from "@merchant-payments/sdk";

const mps = createClient({ apiKey: process.env.MPS_API_KEY, baseUrl: process.env.MPS_API_URL });
const { data: invoice } = await mps.POST("/invoice", {
  body: { amount: "19.99", currency: "EUR", orderId: "order-1" },
});
const { data: payment, error } = await mps.POST("/payment/confirm", {
  body: { externalId: "pi_order_1", amount: "19.99", currency: "EUR", invoiceId: invoice!.id },
});
console.log(payment ? \`payment \${payment.status}\` : error);`,
      run: "npx tsx pay.ts",
    },
    outcome:
      "`payment confirmed`; the receiver prints `verified invoice.created`, `verified payment.confirmed`, " +
      "`verified invoice.payment_received` and `verified invoice.paid`: fulfil the order on `invoice.paid`.",
  },
];
