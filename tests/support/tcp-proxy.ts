import net from "node:net";

export interface TcpProxy {
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url: string;
  /** Resets every open connection (the client sees ECONNRESET, then the close). */
  resetAll(): void;
  /** While down, new connections are refused at once and open ones reset: the database looks unreachable. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 in front of the PostgreSQL server of `databaseUrl`, to cut the service off from it. */
export async function startTcpProxy(databaseUrl: string): Promise<TcpProxy> {
  const target = new URL(databaseUrl);
  const clients = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.resetAndDestroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    clients.add(client);
    client.on("close", () => (clients.delete(client), upstream.destroy()));
    upstream.on("close", () => client.destroy());
    client.on("error", () => {});
    upstream.on("error", () => {});
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const resetAll = () => {
    for (const socket of clients) socket.resetAndDestroy();
  };
  return {
    url: url.toString(),
    resetAll,
    setDown(value) {
      down = value;
      if (down) resetAll();
    },
    close: () => new Promise<void>((resolve) => (resetAll(), server.close(() => resolve()))),
  };
}
