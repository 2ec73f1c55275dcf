/**
 * The one catalogue of crypto networks and the assets a merchant may publish on each (docs/invoices.md,
 * "Payment methods"). The settings form's pickers, the input validation, the address check and the payment URI
 * all read it. An asset's code is a currency of src/lib/currencies.ts with the same decimals: a crypto method is
 * offered on invoices in that currency only, since the service never converts between currencies.
 */

export const CRYPTO_NETWORKS = {
  bitcoin: {
    name: "Bitcoin",
    uri: "bip21",
    assets: { BTC: { decimals: 8 } },
  },
  ethereum: {
    name: "Ethereum",
    uri: "eip681",
    /** EIP-155 chain id, written into EIP-681 URIs after `@`. */
    chainId: 1,
    assets: {
      ETH: { decimals: 18 },
      // ERC-20 tokens: EIP-681 names the token contract and calls `transfer`.
      USDC: { decimals: 6, contract: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" },
      USDT: { decimals: 6, contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7" },
      DAI: { decimals: 18, contract: "0x6B175474E89094C44Da98b954EedeAC495271d0F" },
    },
  },
  solana: {
    name: "Solana",
    uri: "solana-pay",
    assets: {
      SOL: { decimals: 9 },
      // SPL tokens: Solana Pay names the mint in `spl-token`.
      USDC: { decimals: 6, mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" },
      USDT: { decimals: 6, mint: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB" },
    },
  },
} as const;

export type CryptoNetwork = keyof typeof CRYPTO_NETWORKS;
export const cryptoNetworks = Object.keys(CRYPTO_NETWORKS) as CryptoNetwork[];

export interface CatalogueAsset {
  decimals: number;
  /** ERC-20 token contract (Ethereum). */
  contract?: string;
  /** SPL token mint (Solana). */
  mint?: string;
}

/** The assets one network carries, by code. */
export function assetsOf(network: CryptoNetwork): Record<string, CatalogueAsset> {
  return CRYPTO_NETWORKS[network].assets;
}

/** The catalogue entry of `asset` on `network`, or undefined when that network does not carry it. */
export function catalogueAsset(network: CryptoNetwork, asset: string): CatalogueAsset | undefined {
  const assets = assetsOf(network);
  return Object.hasOwn(assets, asset) ? assets[asset] : undefined;
}

/** Every asset code of the catalogue, once (for the settings form's picker). */
export const cryptoAssets = [...new Set(cryptoNetworks.flatMap((network) => Object.keys(assetsOf(network))))];
