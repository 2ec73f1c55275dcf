import { createClient } from "@merchant-payments/sdk";

/** The SDK against the server under test: the API specs call the API as an integrator's code would. */
export function sdk(baseURL: string | undefined, apiKey?: string, headers?: Record<string, string>) {
  if (!baseURL) throw new Error("the e2e config sets baseURL");
  return createClient({ baseUrl: baseURL, apiKey, headers });
}
