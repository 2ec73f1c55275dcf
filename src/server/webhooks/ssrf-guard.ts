import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * SSRF guard for webhook target URLs (docs/webhooks.md, "Which URLs we call"). A merchant chooses the URL our servers POST to, so without
 * this check a merchant could make us call our own loopback, the cloud metadata service (169.254.169.254) or
 * anything on the private network. The guard resolves the host itself and returns the checked addresses:
 * the sender connects to those and nothing else, so a DNS answer that changes between check and connect
 * (DNS rebinding) cannot smuggle a private address in.
 */

export const SSRF_REASONS = [
  "invalid_url",
  "unsupported_scheme",
  "insecure_scheme",
  "credentials_in_url",
  "unresolvable_host",
  "blocked_address",
] as const;
export type SsrfReason = (typeof SSRF_REASONS)[number];

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (A and AAAA). Tests inject their own. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface CheckOptions {
  /** From WEBHOOK_ALLOW_PRIVATE_TARGETS: allows `http:` and private/loopback targets (development, tests). */
  allowPrivateTargets: boolean;
  resolve?: Resolver;
  /** DNS answers slower than this count as unresolvable (default 5 s, the connect timeout). */
  resolveTimeoutMs?: number;
}

export type CheckResult =
  | { ok: true; url: string; hostname: string; addresses: ResolvedAddress[] }
  | { ok: false; reason: SsrfReason; message: string };

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const defaultResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

function refuse(reason: SsrfReason, message: string): CheckResult {
  return { ok: false, reason, message };
}

/** Checks a webhook URL and resolves it to the addresses a delivery may connect to. */
export async function checkWebhookUrl(input: string, options: CheckOptions): Promise<CheckResult> {
  if (input.length > MAX_WEBHOOK_URL_LENGTH) {
    return refuse("invalid_url", `The URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse("invalid_url", "The URL could not be parsed.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return refuse("unsupported_scheme", `Only https URLs are accepted, not ${url.protocol.slice(0, -1)}.`);
  }
  if (url.protocol === "http:" && !options.allowPrivateTargets) {
    return refuse("insecure_scheme", "Only https URLs are accepted; plain http is not.");
  }
  if (url.username !== "" || url.password !== "") {
    return refuse("credentials_in_url", "The URL must not contain a user name or password.");
  }
  // The WHATWG parser has already normalised IPv4 spellings such as 2130706433 or 0x7f.1 to dotted quads.
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (hostname === "") return refuse("invalid_url", "The URL has no host.");

  let addresses: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal !== 0) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await withTimeout(
        (options.resolve ?? defaultResolver)(hostname),
        options.resolveTimeoutMs ?? 5_000,
      );
    } catch {
      return refuse("unresolvable_host", `The host ${hostname} could not be resolved.`);
    }
    if (addresses.length === 0) {
      return refuse("unresolvable_host", `The host ${hostname} has no addresses.`);
    }
  }

  if (!options.allowPrivateTargets) {
    // Every address must be public: a host with one public and one private record could be steered
    // to the private one by whichever record the connection happens to use.
    for (const { address } of addresses) {
      const range = addressRange(address);
      if (range !== "public") {
        return refuse("blocked_address", `The host ${hostname} resolves to ${address} (${range}), which is not a public address.`);
      }
    }
  }
  return { ok: true, url: url.href, hostname, addresses };
}

/**
 * The range an address belongs to: `public` (may be called) or the name of the special range that forbids it
 * (`loopback`, `private`, `linkLocal`, `carrierGradeNat`, `uniqueLocal`, …). Unparseable input is `invalid`.
 * An allow-list at heart: anything not plain global unicast is refused.
 */
export function addressRange(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return "invalid";
  }
  return parsed.kind() === "ipv4" ? ipv4Range(parsed as ipaddr.IPv4) : ipv6Range(parsed as ipaddr.IPv6);
}

function ipv4Range(address: ipaddr.IPv4): string {
  const range = address.range();
  return range === "unicast" ? "public" : range;
}

function ipv6Range(address: ipaddr.IPv6): string {
  if (address.zoneId) return "linkLocal";
  const range = address.range();
  switch (range) {
    // Forms that carry an IPv4 address in their low 32 bits are judged by that address:
    // ::ffff:127.0.0.1 reaches 127.0.0.1, and a NAT64 prefix (64:ff9b::/96) translates to it.
    case "ipv4Mapped":
    case "rfc6145":
      return embeddedRange(address, 6, 7);
    case "rfc6052":
      // The well-known NAT64 prefix 64:ff9b::/96 only; the local-use 64:ff9b:1::/48 leads into a private network.
      return address.parts.slice(2, 6).every((part) => part === 0) ? embeddedRange(address, 6, 7) : "nat64LocalUse";
    // 6to4 (2002:AABB:CCDD::/48) tunnels to the IPv4 address in bits 16–48.
    case "6to4":
      return embeddedRange(address, 1, 2);
    case "unicast": {
      // Only 2000::/3 is global unicast; ipaddr calls the rest (e.g. IPv4-compatible ::a.b.c.d) unicast too.
      const first = address.parts[0] ?? 0;
      return first >= 0x2000 && first <= 0x3fff ? "public" : "reserved";
    }
    default:
      return range;
  }
}

function embeddedRange(address: ipaddr.IPv6, high: number, low: number): string {
  const hi = address.parts[high] ?? 0;
  const lo = address.parts[low] ?? 0;
  const v4 = new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = ipv4Range(v4);
  return range === "public" ? "public" : `${range} (embedded IPv4 ${v4.toString()})`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("DNS resolution timed out")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
