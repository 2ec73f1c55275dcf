import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A webhook endpoint that accepts every request and never answers; it counts the requests it holds (the
 * isolation tests and the noisy-neighbour bench case).
 */
export interface HangingEndpoint {
  url: string;
  /** Requests open right now, the most ever open at once, and all it received. */
  open: number;
  maxOpen: number;
  requests: number;
  close(): Promise<void>;
}

export async function startHangingEndpoint(): Promise<HangingEndpoint> {
  const sockets = new Set<Socket>();
  const state = { url: "", open: 0, maxOpen: 0, requests: 0, close: async () => {} };
  const server: Server = createServer((request: IncomingMessage) => {
    state.requests++;
    state.open++;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    request.socket.once("close", () => state.open--);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hangs`;
  state.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return state;
}

/** A URL on which nothing listens: every connection is refused. */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/refuses`;
}
