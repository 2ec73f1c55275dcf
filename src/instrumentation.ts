// Runs once when the Next.js server starts: open the database and apply migrations before the first
// request, so a broken configuration or database fails the start rather than a customer's request.
export async function register() {
  // NEXT_RUNTIME is a build-time constant, not configuration: the literal check lets the bundler leave the
  // Node-only start-up out of the edge bundle.
  // eslint-disable-next-line no-restricted-properties
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
}
