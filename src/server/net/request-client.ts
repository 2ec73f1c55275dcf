import { clientIp } from "./client-ip";

/** Where a request came from, as the audit log records it (ServiceContext `client`). */
export interface RequestClient {
  ip: string | null;
  userAgent: string | null;
}

/** Longest User-Agent kept in the audit log: real ones are a few hundred characters; the rest is noise or abuse. */
const USER_AGENT_MAX = 512;

/** The request's client as the audit log records it: its address (behind `trustedProxies` proxies) and User-Agent. */
export function requestClient(request: Request, trustedProxies = 0): RequestClient {
  return fromHeaders(request.headers, clientIp(request, trustedProxies));
}

/** The same from headers alone (server actions and pages read `headers()`, not a Request). */
export function fromHeaders(headers: Headers, ip: string | null): RequestClient {
  const userAgent = headers.get("user-agent");
  return { ip: ip && ip !== "unknown" ? ip : null, userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null };
}
