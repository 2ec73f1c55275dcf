/**
 * A web process for the pooler and replica bench (bench/pooler-replica.ts): the REST pipeline (the same
 * `dispatch` Next's route handlers call) behind `node:http`, on the runtime `src/env.ts` configures (DATABASE_URL,
 * DATABASE_DIRECT_URL, DATABASE_REPLICA_URL). Without a Next build, so the bench starts six processes in seconds.
 */
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { dispatch } from "../../src/server/http/dispatch";
import { routes } from "../../src/server/http/routes";
import { getRuntime } from "../../src/server/runtime";

const runtime = await getRuntime();
const port = Number(process.env.PORT);

const server = createServer((req, res) => {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const request = new Request(`http://127.0.0.1:${port}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  dispatch(runtime, routes, request)
    .then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers)).end(body);
    })
    .catch((error: unknown) => {
      runtime.log.error({ err: error }, "bench web process failed a request");
      res.writeHead(500).end();
    });
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => runtime.log.info({ port }, "web process ready"));
const stop = () => server.close(() => runtime.close().finally(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
