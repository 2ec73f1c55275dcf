import { currencyExponent } from "./currencies";

/**
 * An exact decimal amount written for people, in the currency's own style: "15693" JPY → "¥15,693",
 * "1234.5" USD → "$1,234.50". Intl.NumberFormat formats the decimal *string* (ES2023), so nothing passes
 * through a float and 18-decimal crypto amounts keep every digit. Codes Intl does not take as a currency
 * (four-letter tokens such as USDT) get grouped digits and the code after them.
 */
export function formatMoney(amount: string, currency: string, locale = "en-US"): string {
  const exponent = currencyExponent(currency);
  const digits = exponent === undefined ? {} : { minimumFractionDigits: exponent, maximumFractionDigits: exponent };
  // Intl's formatter takes a numeric string as an exact decimal; its TypeScript type predates that.
  const value = amount as unknown as number;
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "narrowSymbol", ...digits }).format(value);
  } catch {
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: exponent ?? 20, minimumFractionDigits: exponent ?? 0 });
    return `${number.format(value)} ${currency}`;
  }
}

/** The number alone, for a chart's axis (the axis label names the currency); never used for exact figures. */
export function formatAxisNumber(value: number, locale = "en-US"): string {
  return new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 2 }).format(value);
}
