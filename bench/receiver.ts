/**
 * A local webhook receiver for case 5: answers 204 to every POST and records when each `webhook-id`
 * first arrived. GET /stats → {count}; GET /arrivals → {id: epoch ms}; POST /reset clears.
 */
import { createServer } from "node:http";

const port = Number(process.env.PORT ?? 3190);
let arrivals = new Map<string, number>();
let count = 0;

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/stats") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ count, unique: arrivals.size }));
    return;
  }
  if (req.method === "GET" && req.url === "/arrivals") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Object.fromEntries(arrivals)));
    return;
  }
  if (req.method === "POST" && req.url === "/reset") {
    arrivals = new Map();
    count = 0;
    res.writeHead(204).end();
    return;
  }
  if (req.method === "GET" && req.url === "/api/v1/health") {
    res.writeHead(200).end("ok");
    return;
  }
  const at = Date.now();
  req.resume();
  req.on("end", () => {
    const id = String(req.headers["webhook-id"] ?? `anonymous-${count}`);
    if (!arrivals.has(id)) arrivals.set(id, at);
    count++;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
