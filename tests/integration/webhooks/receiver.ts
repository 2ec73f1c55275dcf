import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

type Responder = (request: ReceivedWebhook, response: ServerResponse) => void;

/**
 * A local webhook receiver for tests: records every request and answers with whatever `respond` says
 * (200 by default). Reachable because the test runtime sets WEBHOOK_ALLOW_PRIVATE_TARGETS=true.
 */
export interface TestReceiver {
  url: (path?: string) => string;
  received: ReceivedWebhook[];
  respond: Responder;
  /** Deliveries per webhook-id. */
  countById(): Map<string, number>;
  close(): Promise<void>;
}

export async function startReceiver(respond?: Responder): Promise<TestReceiver> {
  const received: ReceivedWebhook[] = [];
  const state: TestReceiver = {
    url: () => "",
    received,
    respond: respond ?? ((_request, response) => response.writeHead(200).end("ok")),
    countById() {
      const counts = new Map<string, number>();
      for (const request of received) {
        const id = request.headers["webhook-id"] ?? "";
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return counts;
    },
    close: async () => {},
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry: ReceivedWebhook = {
        path: request.url ?? "/",
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      received.push(entry);
      state.respond(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = (path = "/hooks") => `http://127.0.0.1:${port}${path}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return state;
}
