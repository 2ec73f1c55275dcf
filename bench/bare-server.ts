/**
 * The bare limit: `node:http` serving the same floor (bench/floor/floor.ts) as the floor app's
 * route handlers, on the same paths. Started by bench/run.ts: PORT and DATABASE_URL from the environment.
 */
import { createServer } from "node:http";
import { createFloor, FLOOR_CONSTANT } from "./floor/floor";

const port = Number(process.env.PORT ?? 3100);
const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const floor = createFloor(url);

const constantBody = JSON.stringify(FLOOR_CONSTANT);
const PAYMENT_PATH = "/api/bench/payment/";

const server = createServer((req, res) => {
  const reply = (status: number, body?: unknown) => {
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
  };
  const fail = (error: unknown) => {
    console.error(error);
    reply(500, { error: "internal" });
  };
  const merchantId = String(req.headers["x-bench-merchant"] ?? "");
  const path = req.url ?? "/";
  if (req.method === "GET" && path === "/api/bench/constant") return reply(200, constantBody);
  if (req.method === "GET" && path.startsWith(PAYMENT_PATH)) {
    floor
      .getPayment(merchantId, decodeURIComponent(path.slice(PAYMENT_PATH.length)))
      .then((row) => reply(row ? 200 : 404, row))
      .catch(fail);
    return;
  }
  if (req.method === "POST" && path === "/api/bench/payment") {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let input;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return reply(400, { error: "malformed_json" });
      }
      floor.createPayment(merchantId, input).then((row) => reply(201, row)).catch(fail);
    });
    return;
  }
  if (req.method === "GET" && path === "/api/v1/health") return reply(200, { status: "ok" });
  reply(404);
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.log(`bare server on ${port}`));
const stop = () => server.close(() => floor.close().finally(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
