import { describe, expect, it } from "vitest";
import { currencyExponent } from "@/lib/currencies";
import { checkAddress } from "./addresses";
import { assetsOf, cryptoNetworks } from "./catalogue";
import { epcApplies, epcPayload } from "./epc-qr";
import { paymentUri } from "./payment-uris";

const base = { reference: "inv_01jd7z9e4f5g6h7j8k9m0n1p2q", label: "Acme & Co" };
const ETH_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const SOL_ADDRESS = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

describe("payment URIs carry the exact amount due", () => {
  it("BIP21: the amount in BTC without trailing zeros, label and message percent-encoded (no `+`)", () => {
    expect(paymentUri({ ...base, network: "bitcoin", asset: "BTC", address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", amount: "0.00120000" })).toBe(
      "bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.0012&label=Acme%20%26%20Co&message=inv_01jd7z9e4f5g6h7j8k9m0n1p2q",
    );
    expect(paymentUri({ ...base, network: "bitcoin", asset: "BTC", address: "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", amount: "21000000.00000000" })).toContain("?amount=21000000&");
  });

  it("EIP-681: ETH as a value in wei, every one of 18 decimals kept (a float would round them)", () => {
    expect(paymentUri({ ...base, network: "ethereum", asset: "ETH", address: ETH_ADDRESS, amount: "1234.123456789012345678" })).toBe(
      `ethereum:${ETH_ADDRESS}@1?value=1234123456789012345678`,
    );
    expect(paymentUri({ ...base, network: "ethereum", asset: "ETH", address: ETH_ADDRESS, amount: "0.000000000000000001" })).toBe(`ethereum:${ETH_ADDRESS}@1?value=1`);
  });

  it("EIP-681: an ERC-20 token calls transfer on its contract with the recipient and base units", () => {
    expect(paymentUri({ ...base, network: "ethereum", asset: "USDC", address: ETH_ADDRESS, amount: "19.990000" })).toBe(
      `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${ETH_ADDRESS}&uint256=19990000`,
    );
  });

  it("Solana Pay: a decimal amount, the SPL mint for tokens, the invoice id as the memo", () => {
    expect(paymentUri({ ...base, network: "solana", asset: "SOL", address: SOL_ADDRESS, amount: "0.000000001" })).toBe(
      `solana:${SOL_ADDRESS}?amount=0.000000001&label=Acme%20%26%20Co&memo=inv_01jd7z9e4f5g6h7j8k9m0n1p2q`,
    );
    expect(paymentUri({ ...base, network: "solana", asset: "USDC", address: SOL_ADDRESS, amount: "5.500000" })).toBe(
      `solana:${SOL_ADDRESS}?amount=5.5&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v&label=Acme%20%26%20Co&memo=inv_01jd7z9e4f5g6h7j8k9m0n1p2q`,
    );
  });

  it("refuses an asset the network does not carry, and more decimals than the asset has", () => {
    expect(() => paymentUri({ ...base, network: "bitcoin", asset: "ETH", address: "x", amount: "1" })).toThrow();
    expect(() => paymentUri({ ...base, network: "ethereum", asset: "USDC", address: ETH_ADDRESS, amount: "1.0000001" })).toThrow();
  });
});

describe("EPC069-12 GiroCode", () => {
  it("writes the twelve fields in order, LF-separated, the invoice id as unstructured remittance", () => {
    expect(epcPayload({ accountHolder: "Acme Kaffee GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX", amount: "24.50", reference: base.reference })).toBe(
      ["BCD", "002", "1", "SCT", "COBADEFFXXX", "Acme Kaffee GmbH", "DE89370400440532013000", "EUR24.50", "", "", base.reference].join("\n"),
    );
    // Version 002 leaves the BIC out within the EEA.
    expect(epcPayload({ accountHolder: "Ü", iban: "DE89370400440532013000", bic: null, amount: "0.01", reference: "r" }).split("\n")[4]).toBe("");
  });

  it("applies to SEPA IBANs in euros within the standard's amount range only", () => {
    expect(epcApplies("DE89370400440532013000", "EUR", "24.50")).toBe(true);
    expect(epcApplies("DE89370400440532013000", "EUR", "999999999.99")).toBe(true);
    expect(epcApplies("DE89370400440532013000", "EUR", "1000000000.00")).toBe(false);
    expect(epcApplies("DE89370400440532013000", "USD", "24.50")).toBe(false);
    expect(epcApplies("BR1800360305000010009795493C1", "EUR", "24.50")).toBe(false);
  });
});

describe("addresses are checked with each network's checksum", () => {
  it("Bitcoin: mainnet legacy, P2SH, bech32 and taproot pass; a typo, testnet or another chain fails", () => {
    for (const address of ["1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297"]) {
      expect(checkAddress("bitcoin", address), address).toMatchObject({ ok: true });
    }
    for (const address of ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdz", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "1BoatSLRHtKNngkdXEeobR76b53LETtpyU", ETH_ADDRESS]) {
      expect(checkAddress("bitcoin", address), address).toMatchObject({ ok: false });
    }
  });

  it("Ethereum: EIP-55 mixed case must match; one case is accepted and stored checksummed", () => {
    expect(checkAddress("ethereum", ETH_ADDRESS)).toEqual({ ok: true, address: ETH_ADDRESS });
    expect(checkAddress("ethereum", ETH_ADDRESS.toLowerCase())).toEqual({ ok: true, address: ETH_ADDRESS });
    expect(checkAddress("ethereum", `0x${ETH_ADDRESS.slice(2).toUpperCase()}`)).toEqual({ ok: true, address: ETH_ADDRESS });
    expect(checkAddress("ethereum", ETH_ADDRESS.replace("aA", "Aa"))).toMatchObject({ ok: false, message: expect.stringContaining("EIP-55") });
    expect(checkAddress("ethereum", "0x123")).toMatchObject({ ok: false, message: expect.stringContaining("40 hexadecimal") });
  });

  it("Solana: base58 of exactly 32 bytes", () => {
    expect(checkAddress("solana", SOL_ADDRESS)).toMatchObject({ ok: true });
    expect(checkAddress("solana", "0OIl")).toMatchObject({ ok: false, message: expect.stringContaining("base58") });
    expect(checkAddress("solana", "3yZe7d")).toMatchObject({ ok: false, message: expect.stringContaining("32 bytes") });
  });
});

describe("the catalogue", () => {
  it("gives every asset the decimals its currency has, and token contracts that pass their own network's check", () => {
    for (const network of cryptoNetworks) {
      for (const [code, asset] of Object.entries(assetsOf(network))) {
        expect(currencyExponent(code), `${network} ${code}`).toBe(asset.decimals);
        if (asset.contract) expect(checkAddress("ethereum", asset.contract), code).toEqual({ ok: true, address: asset.contract });
        if (asset.mint) expect(checkAddress("solana", asset.mint), code).toMatchObject({ ok: true });
      }
    }
  });
});
