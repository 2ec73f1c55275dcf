/**
 * Exact decimal amounts as strings. Amounts never pass through a JS number: a float cannot hold 0.1, let
 * alone 18-decimal crypto amounts, so parsing, comparing and summing work on digits (BigInt).
 */

/** Whole-unit digits allowed: far above any real payment, small enough to refuse absurd input early. */
export const MAX_INTEGER_DIGITS = 30;

const DECIMAL = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

export type AmountCheck = { ok: true; amount: string } | { ok: false; message: string };

/**
 * Checks a positive decimal string against a currency's exponent and returns its canonical form, padded to
 * exactly `exponent` decimals ("19.9" USD → "19.90", "5" JPY → "5"): equal amounts then have equal strings.
 */
export function canonicalAmount(text: string, exponent: number): AmountCheck {
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, message: 'must be a plain decimal string such as "19.99"' };
  const [, whole = "", fraction = ""] = match;
  if (whole.length > MAX_INTEGER_DIGITS) return { ok: false, message: `must have at most ${MAX_INTEGER_DIGITS} digits before the point` };
  if (fraction.length > exponent) {
    return { ok: false, message: exponent === 0 ? "this currency has no decimals" : `this currency has at most ${exponent} decimals` };
  }
  if (/^0*$/.test(whole + fraction)) return { ok: false, message: "must be greater than zero" };
  return { ok: true, amount: exponent === 0 ? whole : `${whole}.${fraction.padEnd(exponent, "0")}` };
}

/** Exact sum of non-negative decimal strings; the result has as many decimals as the longest operand. */
export function addDecimals(...amounts: string[]): string {
  const scale = Math.max(0, ...amounts.map((amount) => amount.split(".")[1]?.length ?? 0));
  const total = amounts.reduce((sum, amount) => sum + toUnits(amount, scale), 0n);
  return fromUnits(total, scale);
}

/**
 * A decimal amount in an asset's smallest unit, exactly ("1.5" with 18 decimals → 1500000000000000000n):
 * EIP-681 URIs carry wei and token base units. Throws when `amount` has more decimals than the asset.
 */
export function toBaseUnits(amount: string, decimals: number): bigint {
  const match = DECIMAL_ANY.exec(amount);
  if (!match) throw new Error(`not a non-negative decimal: ${amount}`);
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) throw new Error(`${amount} has more than ${decimals} decimals`);
  return BigInt((match[1] ?? "0") + fraction.padEnd(decimals, "0"));
}

function toUnits(amount: string, scale: number): bigint {
  const match = DECIMAL.exec(amount);
  if (!match) throw new Error(`not a non-negative decimal: ${amount}`);
  return BigInt((match[1] ?? "0") + (match[2] ?? "").padEnd(scale, "0"));
}

function fromUnits(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const digits = units.toString().padStart(scale + 1, "0");
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * Whether two non-negative decimal strings are the same number ("10.10" and "10.1", "007" and "7"),
 * compared as digits: a float would call 0.1 + 0.2 and 0.3 different and lose 18-decimal amounts.
 */
export function decimalsEqual(a: string, b: string): boolean {
  return normalisedDecimal(a) === normalisedDecimal(b);
}

/** The shortest plain form of a non-negative decimal string: "0.10" → "0.1", "007.00" → "7" (payment URIs). */
export function normalisedDecimal(amount: string): string {
  const match = DECIMAL_ANY.exec(amount);
  if (!match) throw new Error(`not a non-negative decimal: ${amount}`);
  const whole = (match[1] ?? "").replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Like DECIMAL, but leading zeros are allowed: settlement files write "007.50" too. */
const DECIMAL_ANY = /^(\d+)(?:\.(\d+))?$/;
/** Compares non-negative decimal strings exactly: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(a.split(".")[1]?.length ?? 0, b.split(".")[1]?.length ?? 0);
  const left = toUnits(a, scale);
  const right = toUnits(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `a − b`, or zero when b ≥ a: what is still owed never goes negative. */
export function remainingDecimal(a: string, b: string): string {
  const scale = Math.max(a.split(".")[1]?.length ?? 0, b.split(".")[1]?.length ?? 0);
  const difference = toUnits(a, scale) - toUnits(b, scale);
  return fromUnits(difference > 0n ? difference : 0n, scale);
}

/** A non-negative decimal written with exactly `exponent` decimals ("0" → "0.00" for USD); never rounds. */
export function withDecimals(amount: string, exponent: number): string {
  const fraction = amount.split(".")[1] ?? "";
  if (fraction.length > exponent && /[1-9]/.test(fraction.slice(exponent))) throw new Error(`${amount} has more than ${exponent} decimals`);
  return fromUnits(toUnits(amount, Math.max(exponent, fraction.length)) / 10n ** BigInt(Math.max(0, fraction.length - exponent)), exponent);
}

/** `a − b` exactly, negative when b > a ("-5.00"): a day's net volume goes below zero when refunds exceed payments. */
export function subtractDecimals(a: string, b: string): string {
  const scale = Math.max(a.split(".")[1]?.length ?? 0, b.split(".")[1]?.length ?? 0);
  const difference = toUnits(a, scale) - toUnits(b, scale);
  const sign = difference < 0n ? "-" : "";
  return sign + fromUnits(difference < 0n ? -difference : difference, scale);
}
