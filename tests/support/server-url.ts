/** The same server, another database name. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = "/" + database;
  return url.toString();
}

/** Tests create and drop databases: refuse to do that anywhere but a local server. */
export function refuseNonLocal(serverUrl: string): void {
  const host = new URL(serverUrl).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`Refusing to run tests against a non-local database server (${host}).`);
  }
}
