import { openSecret, sealSecret } from "@/server/crypto/secret-box";
import type { ServiceContext } from "../context";

/** The key purpose TOTP secrets are sealed under (crypto/secret-box.ts: a key of its own, derived from AUTH_SECRET). */
const TOTP_SECRET_PURPOSE = "totp-secret";

export function sealTotpSecret(ctx: ServiceContext, secretBase32: string): string {
  return sealSecret(ctx.env.AUTH_SECRET, TOTP_SECRET_PURPOSE, secretBase32);
}

export function openTotpSecret(ctx: ServiceContext, sealed: string): string {
  return openSecret(ctx.env.AUTH_SECRET, TOTP_SECRET_PURPOSE, sealed);
}
