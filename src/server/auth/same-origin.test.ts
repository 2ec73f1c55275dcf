import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./same-origin";

const request = (method: string, headers: Record<string, string>) =>
  new Request("http://shop.example/api/trpc/x", { method, headers: { host: "shop.example", ...headers } });

describe("isCrossSiteRequest", () => {
  it("accepts same-origin POSTs by Sec-Fetch-Site or by Origin", () => {
    expect(isCrossSiteRequest(request("POST", { "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSiteRequest(request("POST", { origin: "http://shop.example" }))).toBe(false);
  });

  it("refuses POSTs from another site, a sibling subdomain, or with no evidence at all", () => {
    expect(isCrossSiteRequest(request("POST", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSiteRequest(request("POST", { "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSiteRequest(request("POST", { origin: "http://evil.example" }))).toBe(true);
    expect(isCrossSiteRequest(request("POST", { origin: "null" }))).toBe(true);
    expect(isCrossSiteRequest(request("POST", {}))).toBe(true);
  });

  it("refuses GETs only when the browser says they come from elsewhere", () => {
    expect(isCrossSiteRequest(request("GET", {}))).toBe(false);
    expect(isCrossSiteRequest(request("GET", { "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSiteRequest(request("GET", { "sec-fetch-site": "none" }))).toBe(false);
    expect(isCrossSiteRequest(request("GET", { "sec-fetch-site": "cross-site" }))).toBe(true);
  });
});
