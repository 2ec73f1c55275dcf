import pg from "pg";

/**
 * Statements the tests run on the PostgreSQL server outside the service's pool (create and drop databases,
 * terminate backends, look at a session from outside): one connection each time, closed again.
 */
export async function serverQuery<T extends Record<string, unknown> = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** A new, empty database on the test server (TEST_SERVER_URL) for one test file; `drop()` removes it. */
export async function createServerDatabase(suffix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_SERVER_URL!;
  const name = `mps_test_${process.pid}_${Date.now().toString(36)}_${suffix}`;
  await serverQuery(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: async () => void (await serverQuery(serverUrl, `drop database if exists "${name}" with (force)`)) };
}
