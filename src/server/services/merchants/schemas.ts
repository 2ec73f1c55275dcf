import { z } from "zod";
import { storable } from "@/lib/storable-text";
import { createSelectSchema } from "drizzle-zod";
import { eventTypes, merchants, type MerchantRow } from "@/server/db/schema";
import { isoTimestamps, rowShape } from "../row-shape";

export const email = z
  .email({ message: "must be an email address" })
  .max(254)
  .transform((value) => value.toLowerCase());

export const httpUrl = z
  .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
  .max(2048);

export const registerMerchantInput = z.strictObject({
  name: z.string().trim().min(1).max(200),
  email,
  password: z.string().min(12, "must be at least 12 characters").max(1024),
  website: httpUrl.optional(),
  webhookUrl: httpUrl.optional(),
});
export type RegisterMerchantInput = z.input<typeof registerMerchantInput>;

/**
 * PUT merchant/{id}: every field optional, an absent field is left as it is; `null` clears `website` or
 * `webhookUrl`. `webhookEvents` replaces the subscription (duplicates dropped; `[]` subscribes to nothing).
 */
export const updateMerchantInput = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  website: httpUrl.nullable().optional(),
  webhookUrl: httpUrl.nullable().optional(),
  webhookEvents: z
    .array(z.enum(eventTypes))
    .max(eventTypes.length * 2)
    .transform((types) => [...new Set(types)])
    .optional(),
  paymentInstructions: z
    .string()
    .trim()
    .max(2000)
    .refine(storable, "must not contain NUL or unpaired surrogates")
    .nullable()
    .optional()
    .describe("Plain text shown on every invoice's checkout page (how to pay: bank details, a wallet address); `null` clears it."),
});
export type UpdateMerchantInput = z.input<typeof updateMerchantInput>;

export const merchantIdInput = z.strictObject({ id: z.string().min(1).max(64) });

/** The Merchant as clients see it (docs/api-contract.md, "Shapes"): the merchants table's row (drizzle-zod). */
export const merchantSchema = createSelectSchema(merchants, {
  ...isoTimestamps(merchants),
  webhookEvents: z.array(z.enum(eventTypes)),
})
  // A sign-in policy of the dashboard's team, not part of the merchant's API profile.
  .omit({ requireSecondFactor: true })
  .meta({ id: "Merchant" });
export type Merchant = z.infer<typeof merchantSchema>;

export const registerMerchantResult = z.object({
  merchant: merchantSchema,
  apiKey: z.string().describe("Shown this once; store it now."),
  webhookSecret: z.string().describe("Shown this once here; the dashboard can reveal it again."),
});

export const toMerchant = rowShape<typeof merchantSchema, MerchantRow>(merchantSchema);
