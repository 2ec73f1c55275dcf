import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./same-origin";

const request = (method: string, headers: Record<string, string>) =>
  new Request("http://shop.example/api/trpc/x", { method, headers: { host: "shop.example", ...headers } });

describe("isCrossSiteRequest", () => {
  it("accepts same-origin POSTs by Sec-Fetch-Site or by Origin", () => {
    expect(isCrossSiteRequest(request("POST", { "sec-fetch-site": "same-origin" }), 0)).toBe(false);
    expect(isCrossSiteRequest(request("POST", { origin: "http://shop.example" }), 0)).toBe(false);
  });

  it("refuses POSTs from another site, a sibling subdomain, or with no evidence at all", () => {
    expect(isCrossSiteRequest(request("POST", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }), 0)).toBe(true);
    expect(isCrossSiteRequest(request("POST", { "sec-fetch-site": "same-site" }), 0)).toBe(true);
    expect(isCrossSiteRequest(request("POST", { origin: "http://evil.example" }), 0)).toBe(true);
    expect(isCrossSiteRequest(request("POST", { origin: "null" }), 0)).toBe(true);
    expect(isCrossSiteRequest(request("POST", {}), 0)).toBe(true);
  });

  it("reads X-Forwarded-Host only when a trusted proxy sets it (TRUSTED_PROXY_HOPS > 0)", () => {
    const forged = request("POST", { origin: "http://evil.example", "x-forwarded-host": "evil.example" });
    expect(isCrossSiteRequest(forged, 0)).toBe(true);
    expect(isCrossSiteRequest(forged, 1)).toBe(false); // the proxy says the client asked for evil.example
    const proxied = request("POST", { origin: "https://shop.example.com", host: "app:3000", "x-forwarded-host": "shop.example.com" });
    expect(isCrossSiteRequest(proxied, 1)).toBe(false);
    expect(isCrossSiteRequest(proxied, 0)).toBe(true);
  });

  it("refuses GETs only when the browser says they come from elsewhere", () => {
    expect(isCrossSiteRequest(request("GET", {}), 0)).toBe(false);
    expect(isCrossSiteRequest(request("GET", { "sec-fetch-site": "same-origin" }), 0)).toBe(false);
    expect(isCrossSiteRequest(request("GET", { "sec-fetch-site": "none" }), 0)).toBe(false);
    expect(isCrossSiteRequest(request("GET", { "sec-fetch-site": "cross-site" }), 0)).toBe(true);
  });
});
