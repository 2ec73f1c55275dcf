import { describe, expect, it } from "vitest";
import { addressRange, checkWebhookUrl, type ResolvedAddress, type Resolver } from "./ssrf-guard";

/** A fake DNS: host name → addresses; unknown names fail like ENOTFOUND. */
function fakeDns(records: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

const dns = fakeDns({
  "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "localhost": ["127.0.0.1", "::1"],
  "internal.example.com": ["10.1.2.3"],
  "metadata.example.com": ["169.254.169.254"],
  "mixed.example.com": ["93.184.215.14", "192.168.1.10"],
  "empty.example.com": [],
});

describe("addressRange", () => {
  it.each([
    // IPv4
    ["93.184.215.14", "public"],
    ["8.8.8.8", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["169.254.0.1", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.254", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    // Just outside the private ranges: public.
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["11.0.0.1", "public"],
    // IPv6
    ["2606:4700:4700::1111", "public"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456:789a::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["100::1", "discard"],
    ["2001::1", "teredo"],
    // IPv6 forms that embed an IPv4 address are judged by it.
    ["::ffff:127.0.0.1", "loopback (embedded IPv4 127.0.0.1)"],
    ["::ffff:7f00:1", "loopback (embedded IPv4 127.0.0.1)"],
    ["::ffff:169.254.169.254", "linkLocal (embedded IPv4 169.254.169.254)"],
    ["::ffff:10.0.0.1", "private (embedded IPv4 10.0.0.1)"],
    ["::ffff:8.8.8.8", "public"],
    ["::ffff:0:10.0.0.1", "private (embedded IPv4 10.0.0.1)"],
    ["64:ff9b::192.168.0.1", "private (embedded IPv4 192.168.0.1)"],
    ["64:ff9b::8.8.8.8", "public"],
    ["64:ff9b:1::1", "nat64LocalUse"],
    ["2002:7f00:1::1", "loopback (embedded IPv4 127.0.0.1)"],
    ["2002:0808:0808::1", "public"],
    // Deprecated IPv4-compatible form (as URLs and resolvers spell it): outside 2000::/3, refused.
    ["::7f00:1", "reserved"],
    ["::808:808", "reserved"],
    ["not-an-ip", "invalid"],
  ])("%s → %s", (address, range) => {
    expect(addressRange(address)).toBe(range);
  });
});

describe("checkWebhookUrl", () => {
  const strict = { allowPrivateTargets: false, resolve: dns };
  const relaxed = { allowPrivateTargets: true, resolve: dns };

  it.each([
    // [url, options, expected reason]
    ["not a url", strict, "invalid_url"],
    ["https://", strict, "invalid_url"],
    [`https://hooks.example.com/${"a".repeat(2100)}`, strict, "invalid_url"],
    ["ftp://hooks.example.com/x", strict, "unsupported_scheme"],
    ["file:///etc/passwd", strict, "unsupported_scheme"],
    ["javascript:alert(1)", strict, "unsupported_scheme"],
    ["ftp://hooks.example.com/x", relaxed, "unsupported_scheme"],
    ["http://hooks.example.com/hook", strict, "insecure_scheme"],
    ["https://user:pass@hooks.example.com/hook", strict, "credentials_in_url"],
    ["https://user@hooks.example.com/hook", strict, "credentials_in_url"],
    ["http://user:pass@localhost/hook", relaxed, "credentials_in_url"],
    ["https://nowhere.example.com/hook", strict, "unresolvable_host"],
    ["https://empty.example.com/hook", strict, "unresolvable_host"],
    ["https://localhost/hook", strict, "blocked_address"],
    ["https://127.0.0.1/hook", strict, "blocked_address"],
    ["https://2130706433/hook", strict, "blocked_address"], // 127.0.0.1 as one decimal number
    ["https://0x7f.1/hook", strict, "blocked_address"], // 127.0.0.1 in hex shorthand
    ["https://0177.0.0.1/hook", strict, "blocked_address"], // octal
    ["https://[::1]/hook", strict, "blocked_address"],
    ["https://[::ffff:127.0.0.1]/hook", strict, "blocked_address"],
    ["https://[::ffff:a9fe:a9fe]/hook", strict, "blocked_address"], // 169.254.169.254
    ["https://[fd00::1]/hook", strict, "blocked_address"],
    ["https://[::8.8.8.8]/hook", strict, "blocked_address"], // IPv4-compatible, normalised to ::808:808
    ["https://[fe80::1]/hook", strict, "blocked_address"],
    ["https://169.254.169.254/latest/meta-data/", strict, "blocked_address"],
    ["https://metadata.example.com/", strict, "blocked_address"],
    ["https://internal.example.com/hook", strict, "blocked_address"],
    ["https://100.64.1.1/hook", strict, "blocked_address"],
    ["https://224.0.0.1/hook", strict, "blocked_address"],
    ["https://0.0.0.0/hook", strict, "blocked_address"],
    ["https://255.255.255.255/hook", strict, "blocked_address"],
    // One private record among public ones is enough to refuse.
    ["https://mixed.example.com/hook", strict, "blocked_address"],
  ])("%s is refused (%#)", async (url, options, reason) => {
    const result = await checkWebhookUrl(url, options);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe(reason);
      expect(result.message).toEqual(expect.any(String));
    }
  });

  it.each([
    ["https://hooks.example.com/webhooks?x=1", strict, ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]],
    ["https://93.184.215.14:8443/hook", strict, ["93.184.215.14"]],
    ["https://[2606:4700:4700::1111]/hook", strict, ["2606:4700:4700::1111"]],
    // With private targets allowed (development, tests): http and loopback are fine.
    ["http://localhost:3000/hook", relaxed, ["127.0.0.1", "::1"]],
    ["http://127.0.0.1:4000/hook", relaxed, ["127.0.0.1"]],
    ["https://internal.example.com/hook", relaxed, ["10.1.2.3"]],
  ])("%s is accepted", async (url, options, addresses) => {
    const result = await checkWebhookUrl(url, options);
    expect(result).toMatchObject({ ok: true });
    if (result.ok) {
      expect(result.addresses.map((entry) => entry.address)).toEqual(addresses);
      expect(result.url).toBe(new URL(url).href);
    }
  });

  it("names the refused address and its range in the message", async () => {
    const result = await checkWebhookUrl("https://metadata.example.com/", strict);
    expect(result).toEqual({
      ok: false,
      reason: "blocked_address",
      message: expect.stringContaining("169.254.169.254 (linkLocal)"),
    });
  });

  it("treats a DNS answer that never comes as unresolvable", async () => {
    const hanging: Resolver = () => new Promise(() => {});
    const result = await checkWebhookUrl("https://slow.example.com/", {
      allowPrivateTargets: false,
      resolve: hanging,
      resolveTimeoutMs: 20,
    });
    expect(result).toMatchObject({ ok: false, reason: "unresolvable_host" });
  });

  it("resolves with the system resolver by default", async () => {
    const result = await checkWebhookUrl("http://localhost:1/", { allowPrivateTargets: true });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.addresses.map((entry) => entry.address)).toContain("127.0.0.1");
    const blocked = await checkWebhookUrl("https://localhost/", { allowPrivateTargets: false });
    expect(blocked).toMatchObject({ ok: false, reason: "blocked_address" });
  });
});
