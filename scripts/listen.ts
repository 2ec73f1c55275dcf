/**
 * `npm run listen -- --forward-to http://localhost:4000/hook`: forwards the merchant's events to a local URL as
 * signed webhooks (docs/developer-tools.md). The key comes from MPS_API_KEY, the service from MPS_API_URL
 * (default http://localhost:3000).
 */
import { parseArgs } from "node:util";
import { listen } from "./listen/forward";

const { values } = parseArgs({
  options: { "forward-to": { type: "string" }, after: { type: "string" }, secret: { type: "string" } },
});
const forwardTo = values["forward-to"];
const apiKey = process.env.MPS_API_KEY;
if (!forwardTo || !/^https?:\/\//.test(forwardTo) || !apiKey) {
  console.error(
    "Usage: MPS_API_KEY=sk_live_… npm run listen -- --forward-to http://localhost:4000/hook [--after evt_…] [--secret whsec_…]\n" +
      "MPS_API_URL sets where the service runs (default http://localhost:3000).",
  );
  process.exit(2);
}
const stop = new AbortController();
process.once("SIGINT", () => stop.abort());
process.once("SIGTERM", () => stop.abort());
try {
  await listen({ apiUrl: process.env.MPS_API_URL || "http://localhost:3000", apiKey, forwardTo, after: values.after, secret: values.secret, signal: stop.signal });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
