import { normalisedDecimal, toBaseUnits } from "@/lib/money";
import { CRYPTO_NETWORKS, catalogueAsset, type CryptoNetwork } from "./catalogue";

/**
 * The standard payment URI of a crypto method with the amount filled in, as a wallet reads it from a QR code.
 * Amounts are exact decimal strings and stay strings (or BigInt base units): never a float.
 * - Bitcoin, BIP21: `bitcoin:<address>?amount=<BTC>&label=<merchant>&message=<invoice id>`
 * - Ethereum, EIP-681: `ethereum:<address>@1?value=<wei>` for ETH; for an ERC-20 token
 *   `ethereum:<token contract>@1/transfer?address=<address>&uint256=<base units>`
 * - Solana Pay transfer request: `solana:<address>?amount=<SOL or token>&spl-token=<mint>&label=…&memo=<invoice id>`
 */
export interface PaymentUriInput {
  network: CryptoNetwork;
  asset: string;
  address: string;
  /** What the payer still owes, a decimal string in the asset (at most its decimals). */
  amount: string;
  /** The invoice id: the reference the merchant matches the payment by. */
  reference: string;
  /** The merchant's name, shown by wallets that read it. */
  label: string;
}

export function paymentUri(input: PaymentUriInput): string {
  const asset = catalogueAsset(input.network, input.asset);
  if (!asset) throw new Error(`${input.network} carries no ${input.asset}`);
  switch (input.network) {
    case "bitcoin":
      return `bitcoin:${input.address}?${query({ amount: normalisedDecimal(input.amount), label: input.label, message: input.reference })}`;
    case "ethereum": {
      const units = toBaseUnits(input.amount, asset.decimals).toString();
      const chain = CRYPTO_NETWORKS.ethereum.chainId;
      return asset.contract
        ? `ethereum:${asset.contract}@${chain}/transfer?${query({ address: input.address, uint256: units })}`
        : `ethereum:${input.address}@${chain}?${query({ value: units })}`;
    }
    case "solana":
      return `solana:${input.address}?${query({
        amount: normalisedDecimal(input.amount),
        "spl-token": asset.mint,
        label: input.label,
        memo: input.reference,
      })}`;
  }
}

/** RFC 3986 query encoding (BIP21 and Solana Pay ask for it; spaces are %20, never `+`). */
function query(params: Record<string, string | undefined>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join("&");
}
