import { electronicFormatIBAN, validateBIC, validateIBAN, ValidationErrorsIBAN } from "ibantools";
import { z } from "zod";
import { checkAddress } from "@/lib/payment-methods/addresses";
import { assetsOf, catalogueAsset, cryptoNetworks } from "@/lib/payment-methods/catalogue";
import { EPC_MAX_NAME } from "@/lib/payment-methods/epc-qr";

/** How many methods one mode may publish: a payer picks from a short list. */
export const MAX_PAYMENT_METHODS = 10;

const IBAN_PROBLEMS: Partial<Record<ValidationErrorsIBAN, string>> = {
  [ValidationErrorsIBAN.NoIBANCountry]: "does not start with a known IBAN country code",
  [ValidationErrorsIBAN.WrongBBANLength]: "has the wrong length for its country",
  [ValidationErrorsIBAN.WrongBBANFormat]: "has characters its country's format does not allow",
  [ValidationErrorsIBAN.ChecksumNotNumber]: "must have two check digits after the country code",
  [ValidationErrorsIBAN.WrongIBANChecksum]: "has wrong check digits: check every character",
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: "has a wrong national account checksum: check every character",
};

/** An IBAN as people type it ("de89 3704 …"), kept in its electronic form, each problem named. */
const iban = z
  .string()
  .max(64)
  .transform((value) => electronicFormatIBAN(value) ?? "")
  .superRefine((value, issue) => {
    const result = validateIBAN(value, { allowQRIBAN: true });
    if (!result.valid) issue.addIssue({ code: "custom", message: `IBAN ${IBAN_PROBLEMS[result.errorCodes[0]!] ?? "is not valid"}` });
  });

const bic = z
  .string()
  .max(20)
  .transform((value) => value.replace(/\s+/g, "").toUpperCase())
  .refine((value) => validateBIC(value).valid, "must be a BIC of 8 or 11 characters (bank, country, location[, branch])");

const bankTransfer = z.strictObject({
  type: z.literal("bank_transfer"),
  accountHolder: z.string().trim().min(1).max(EPC_MAX_NAME).describe("The beneficiary's name, as the bank knows it (≤ 70 characters, the GiroCode limit)."),
  iban: iban.describe("Validated with its check digits and the country's format; stored without spaces, upper-case."),
  bic: bic.nullable().default(null).describe("Optional within SEPA; validated when given."),
});

const crypto = z
  .strictObject({
    type: z.literal("crypto"),
    network: z.enum(cryptoNetworks),
    asset: z.string().max(16).describe("A code the network carries in the catalogue (docs/invoices.md): BTC; ETH, USDC, USDT, DAI; SOL, USDC, USDT."),
    address: z.string().trim().min(1).max(128).describe("Checked with the network's checksum; Ethereum addresses are stored in their EIP-55 form."),
  })
  .superRefine((method, issue) => {
    if (!catalogueAsset(method.network, method.asset)) {
      const carried = Object.keys(assetsOf(method.network)).join(", ");
      issue.addIssue({ code: "custom", path: ["asset"], message: `${method.network} carries ${carried} here, not ${JSON.stringify(method.asset)}` });
    }
    const address = checkAddress(method.network, method.address);
    if (!address.ok) issue.addIssue({ code: "custom", path: ["address"], message: address.message });
  });

const link = z.strictObject({
  type: z.literal("link"),
  label: z.string().trim().min(1).max(60).describe('What the payer clicks: "Pay with PayPal".'),
  url: z
    .url({ protocol: /^https$/, message: "must be an https URL" })
    .max(2048)
    .describe("A processor's own pay page (https only)."),
});

export const paymentMethodInput = z.discriminatedUnion("type", [bankTransfer, crypto, link]);
export type PaymentMethodInput = z.input<typeof paymentMethodInput>;

/** A published method as stored and returned: the input's normalised form, one shape per type. */
export const paymentMethodVariants = [
  z.object({ type: z.literal("bank_transfer"), accountHolder: z.string(), iban: z.string(), bic: z.string().nullable() }),
  z.object({ type: z.literal("crypto"), network: z.enum(cryptoNetworks), asset: z.string(), address: z.string() }),
  z.object({ type: z.literal("link"), label: z.string(), url: z.string() }),
] as const;
export const paymentMethodSchema = z.discriminatedUnion("type", paymentMethodVariants).meta({ id: "PaymentMethod" });
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const setPaymentMethodsInput = z.strictObject({
  methods: z
    .array(paymentMethodInput)
    .max(MAX_PAYMENT_METHODS)
    .describe(`Replaces the list (at most ${MAX_PAYMENT_METHODS}), in the order payers see it; \`[]\` removes every method.`),
});
export type SetPaymentMethodsInput = z.input<typeof setPaymentMethodsInput>;

export const paymentMethodsSchema = z
  .object({
    livemode: z.boolean().describe("The mode these methods are published in: the key's, or the dashboard switch's."),
    methods: z.array(paymentMethodSchema),
  })
  .meta({ id: "PaymentMethods" });
export type PaymentMethods = z.infer<typeof paymentMethodsSchema>;
