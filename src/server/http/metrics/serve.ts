import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Runtime } from "@/server/runtime";
import { answerMetricsScrape } from "./endpoint";

/**
 * A worker's own scrape endpoint (a worker serves no HTTP otherwise): `GET /metrics` on `port`, answered exactly
 * like the web processes' `/api/v1/metrics` (the same token check). Resolves with its port and the way to close it.
 */
export async function serveMetrics(runtime: Runtime, port: number): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((incoming, outgoing) => {
    const headers = new Headers();
    if (incoming.headers.authorization) headers.set("authorization", incoming.headers.authorization);
    const path = (incoming.url ?? "/").split("?")[0];
    const answer = incoming.method === "GET" && path === "/metrics"
      ? answerMetricsScrape(runtime, new Request(`http://worker${path}`, { headers }))
      : Promise.resolve(new Response("Not found\n", { status: 404 }));
    answer
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(await response.text());
      })
      .catch((error: unknown) => {
        runtime.log.error({ err: error }, "metrics scrape failed");
        outgoing.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, resolve));
  const bound = (server.address() as AddressInfo).port;
  runtime.log.info({ port: bound }, "metrics served at /metrics");
  return { port: bound, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
