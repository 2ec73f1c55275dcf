import { z } from "zod";

export const totpCodeInput = z.strictObject({ code: z.string().trim().min(1, "is required").max(20) });
export type TotpCodeInput = z.input<typeof totpCodeInput>;

/** Removing a factor asks for the password again: a session left open on a shared computer is not enough. */
export const removeFactorInput = z.strictObject({ password: z.string().min(1, "is required").max(1024) });

export const removePasskeyInput = removeFactorInput.extend({ id: z.string().min(1).max(64) });

export const passkeyNameInput = z.string().trim().min(1).max(100);
