import ipaddr from "ipaddr.js";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/**
 * Checks a webhook URL a merchant gives us (register, profile update) and throws 422
 * `webhook_url_rejected` with the reason when it is unusable.
 *
 * INTERIM: this only checks what can be seen without DNS (https, no credentials, no literal loopback/
 * private/link-local address, no localhost). Once the SSRF guard of the webhooks work lands
 * (`checkWebhookUrl` in src/server/webhooks/ssrf-guard.ts, which also resolves the host), this function
 * should call it instead; callers need not change.
 */
export async function assertUsableWebhookUrl(ctx: ServiceContext, input: string): Promise<void> {
  const reason = interimCheck(input, ctx.env.WEBHOOK_ALLOW_PRIVATE_TARGETS);
  if (reason) throw new ServiceError("webhook_url_rejected", reason);
}

function interimCheck(input: string, allowPrivateTargets: boolean): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return "The URL could not be parsed.";
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowPrivateTargets)) {
    return "Only https URLs are accepted.";
  }
  if (url.username !== "" || url.password !== "") return "The URL must not contain a user name or password.";
  if (allowPrivateTargets) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "The URL points at this machine.";
  if (ipaddr.isValid(host)) {
    const address = ipaddr.process(host); // IPv4-mapped IPv6 → IPv4, so ::ffff:127.0.0.1 is caught too
    if (address.range() !== "unicast") return `The URL points at a ${address.range()} address.`;
  }
  return null;
}
