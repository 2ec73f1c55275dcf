/* eslint-disable no-console -- a command-line example: printing is its job */
/**
 * Runs the example receiver: `WEBHOOK_SECRET=whsec_… PORT=4000 npx tsx examples/webhook-receiver/main.ts`.
 * Handled events are kept in ./handled-events.jsonl (override with HANDLED_EVENTS_FILE).
 *
 * The payment service refuses loopback and `http://` webhook URLs unless it runs with
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true (development only): start it so (`WEBHOOK_ALLOW_PRIVATE_TARGETS=true npm run dev`)
 * to send to this receiver at http://localhost:4000.
 */
import { createServer } from "node:http";
import { createReceiver, HandledEvents } from "./receiver";

const secret = process.env.WEBHOOK_SECRET;
if (!secret?.startsWith("whsec_")) {
  console.error("Set WEBHOOK_SECRET to the whsec_… secret shown at registration (or in the dashboard).");
  process.exit(1);
}
const store = new HandledEvents(process.env.HANDLED_EVENTS_FILE ?? "handled-events.jsonl");
const receive = createReceiver({
  secret,
  store,
  handle: (eventId, event) => {
    // Your business logic goes here, e.g. mark the order paid on payment.confirmed.
    console.log(`${event.type} ${eventId}`, JSON.stringify(event.data));
  },
});
const port = Number(process.env.PORT ?? 4000);
createServer((request, response) => {
  receive(request, response).catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) response.writeHead(500).end();
  });
}).listen(port, () => console.log(`Webhook receiver on http://localhost:${port} (${store.size} events handled so far)`));
