import { describe, expect, it } from "vitest";
import { fieldErrorsFromZod } from "../errors";
import { setPaymentMethodsInput } from "./schemas";

const errorsOf = (methods: unknown[]) => {
  const result = setPaymentMethodsInput.safeParse({ methods });
  return result.success ? [] : fieldErrorsFromZod("body", result.error.issues);
};
const bank = { type: "bank_transfer", accountHolder: "Acme Kaffee GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX" };

describe("payment method input", () => {
  it("keeps an IBAN typed with spaces and lower case in its electronic form, and a BIC upper-cased", () => {
    const parsed = setPaymentMethodsInput.parse({ methods: [{ ...bank, iban: "de89 3704 0044 0532 0130 00", bic: "cobadeff xxx" }, { ...bank, bic: undefined }] });
    expect(parsed.methods[0]).toMatchObject({ iban: "DE89370400440532013000", bic: "COBADEFFXXX" });
    expect(parsed.methods[1]).toMatchObject({ bic: null });
  });

  it("names what is wrong with an IBAN: check digits, length, country", () => {
    expect(errorsOf([{ ...bank, iban: "DE88370400440532013000" }])).toEqual([{ path: "body.methods.0.iban", message: "IBAN has wrong check digits: check every character" }]);
    expect(errorsOf([{ ...bank, iban: "DE8937040044053201300" }])).toEqual([{ path: "body.methods.0.iban", message: "IBAN has the wrong length for its country" }]);
    expect(errorsOf([{ ...bank, iban: "XX89370400440532013000" }])).toEqual([{ path: "body.methods.0.iban", message: "IBAN does not start with a known IBAN country code" }]);
  });

  it("refuses a malformed BIC and an account holder longer than a GiroCode carries", () => {
    expect(errorsOf([{ ...bank, bic: "COBAD" }]).map((error) => error.path)).toEqual(["body.methods.0.bic"]);
    expect(errorsOf([{ ...bank, accountHolder: "x".repeat(71) }]).map((error) => error.path)).toEqual(["body.methods.0.accountHolder"]);
  });

  it("checks the asset against the network's catalogue and the address with the network's checksum, each on its own path", () => {
    expect(errorsOf([{ type: "crypto", network: "bitcoin", asset: "USDC", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }])).toEqual([
      { path: "body.methods.0.asset", message: 'bitcoin carries BTC here, not "USDC"' },
      { path: "body.methods.0.address", message: expect.stringContaining("Bitcoin mainnet") },
    ]);
    expect(errorsOf([{ type: "crypto", network: "dogecoin", asset: "DOGE", address: "D" }]).map((error) => error.path)).toEqual(["body.methods.0.network"]);
    expect(errorsOf([{ type: "crypto", network: "ethereum", asset: "USDT", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }])).toEqual([]);
  });

  it("takes https links only, and at most ten methods", () => {
    expect(errorsOf([{ type: "link", label: "PayPal", url: "http://paypal.example/acme" }])).toEqual([{ path: "body.methods.0.url", message: "must be an https URL" }]);
    expect(errorsOf([{ type: "link", label: "PayPal", url: "javascript:alert(1)" }]).map((error) => error.path)).toEqual(["body.methods.0.url"]);
    expect(errorsOf(Array.from({ length: 11 }, () => bank)).map((error) => error.path)).toEqual(["body.methods"]);
  });

  it("refuses an unknown type and unknown fields", () => {
    expect(errorsOf([{ type: "cash" }]).map((error) => error.path)).toEqual(["body.methods.0.type"]);
    expect(errorsOf([{ ...bank, swift: "x" }])).toEqual([{ path: "body.methods.0.swift", message: "is not a known field" }]);
  });
});
