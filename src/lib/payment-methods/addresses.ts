import { keccak_256 } from "@noble/hashes/sha3.js";
import { base58 } from "@scure/base";
import { Network, validate as validateBitcoinAddress } from "bitcoin-address-validation";
import type { CryptoNetwork } from "./catalogue";

/**
 * Checks a receiving address for its network, with the network's own checksum, so a typo is caught when the
 * merchant saves it rather than when a payer's money is gone: Bitcoin base58check and bech32/bech32m (mainnet
 * only), Ethereum's EIP-55 mixed-case checksum, Solana's base58 32-byte public key.
 */
export type AddressCheck = { ok: true; address: string } | { ok: false; message: string };

export function checkAddress(network: CryptoNetwork, input: string): AddressCheck {
  const address = input.trim();
  switch (network) {
    case "bitcoin":
      return validateBitcoinAddress(address, Network.mainnet)
        ? { ok: true, address }
        : { ok: false, message: "is not a Bitcoin mainnet address (legacy 1…, 3… or bech32 bc1…), or its checksum is wrong" };
    case "ethereum":
      return checkEthereumAddress(address);
    case "solana":
      return checkSolanaAddress(address);
  }
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-55: an all-lowercase or all-uppercase address carries no checksum and is accepted (then stored in its
 * checksummed form); a mixed-case one must match its checksum exactly.
 */
function checkEthereumAddress(address: string): AddressCheck {
  if (!HEX_ADDRESS.test(address)) return { ok: false, message: "must be 0x followed by 40 hexadecimal digits" };
  const checksummed = toChecksumAddress(address);
  const digits = address.slice(2);
  const mixedCase = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
  if (mixedCase && address !== checksummed) return { ok: false, message: "has a wrong EIP-55 checksum (mixed case): check every character" };
  return { ok: true, address: checksummed };
}

/** The EIP-55 form of a 0x-prefixed 40-digit hex address. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out;
}

function checkSolanaAddress(address: string): AddressCheck {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    return { ok: false, message: "must be a base58 Solana address (no 0, O, I or l)" };
  }
  return bytes.length === 32 ? { ok: true, address } : { ok: false, message: `must decode to 32 bytes (a public key), not ${bytes.length}` };
}
