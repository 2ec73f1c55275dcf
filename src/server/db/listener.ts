import type { Client } from "pg";

/** The first wait before reconnecting a LISTEN connection; it doubles on each failure up to the maximum. */
export const LISTEN_RETRY_MS = { first: 250, max: 5_000 };

/**
 * LISTEN on `channel` on a connection of its own, outside the pool (a pooled connection would be handed to other
 * statements, and a pooler in transaction mode does not keep a LISTEN). Resolves once the first LISTEN is in place
 * (rejects if it cannot be), with the way to stop listening.
 *
 * When the connection drops (the server restarts, `pg_terminate_backend`, a network reset) it is opened again, with a
 * growing pause between attempts, and `onNotify` runs once after each reconnection: a notification sent while no one
 * listened is lost, and the caller (the webhook worker) treats a notification as "look now".
 */
export async function listenReconnecting(newClient: () => Client, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  let current: Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let pause = LISTEN_RETRY_MS.first;

  const open = async (): Promise<void> => {
    const client = newClient();
    client.on("notification", (message) => {
      if (message.channel === channel) onNotify();
    });
    // A failing connection emits 'error' and then 'end'. Once it listened, 'end' reconnects; a failed open is
    // its caller's to retry.
    client.on("error", () => {});
    client.once("end", () => {
      if (current !== client) return;
      current = null;
      if (!stopped) reconnectLater();
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
  };

  const reconnectLater = () => {
    clearTimeout(retry);
    retry = setTimeout(() => {
      open().then(
        () => {
          pause = LISTEN_RETRY_MS.first;
          if (!stopped) onNotify();
        },
        () => {
          pause = Math.min(pause * 2, LISTEN_RETRY_MS.max);
          if (!stopped) reconnectLater();
        },
      );
    }, pause);
    retry.unref();
  };

  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}
