import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A webhook receiver on 127.0.0.1 whose answer the test switches (500 → 200), recording what it got. */
export async function startReceiver() {
  let status = 500;
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status, { "content-type": "text/plain" });
      response.end(status === 200 ? "ok" : "receiver is down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    answer(code: number) {
      status = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
