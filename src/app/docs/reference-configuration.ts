/** Where the page loads Scalar's bundle from: our own origin (docs/scalar.js/route.ts). */
export const SCALAR_SCRIPT = "/docs/scalar.js";

/**
 * Scalar's configuration for /docs (docs/developer-tools.md, "API reference"). Everything that would reach
 * another host is off: fonts come from the page's own CSS, no telemetry, no AI agent or MCP features, and
 * try-it requests go straight to this origin (no `proxyUrl`: the API is same-origin). The document is the one
 * `GET /api/v1/openapi.json` serves, with SDK and curl samples in each operation's `x-codeSamples`.
 */
export function referenceConfiguration() {
  return {
    url: "/api/v1/openapi.json",
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    hideClientButton: false,
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    authentication: { preferredSecurityScheme: "apiKey" },
    persistAuth: false,
    documentDownloadType: "json",
    layout: "modern",
    theme: "default",
    metaData: { title: "API reference · Merchant Payments" },
  } as const;
}
