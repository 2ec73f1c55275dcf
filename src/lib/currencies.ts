/**
 * How many decimals each accepted currency may carry. Fiat: the ISO 4217 minor units (active codes with a
 * defined exponent; funds and metals without one, such as XAU or XDR, are not payment currencies here).
 * Crypto assets: the precision their ledgers or their most used token contracts define, capped at 18
 * (the design's limit; NEAR's 24 would not fit). An unknown code is refused rather than guessed.
 */
const ISO_4217_EXPONENTS: Record<string, number> = {
  ...codes(0, "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"),
  ...codes(3, "BHD IQD JOD KWD LYD OMR TND"),
  ...codes(4, "CLF UYW"),
  ...codes(
    2,
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF " +
      "CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD " +
      "HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT " +
      "MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB " +
      "SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN " +
      "UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG",
  ),
};

// Stablecoins are listed with their canonical (Ethereum/Tron) contract precision.
const CRYPTO_EXPONENTS: Record<string, number> = {
  ...codes(4, "EOS"),
  ...codes(6, "USDT USDC PYUSD EURC XRP ADA TRX ATOM ALGO XTZ"),
  ...codes(7, "XLM"),
  ...codes(8, "BTC WBTC LTC BCH DOGE ZEC DASH HBAR KAS APT"),
  ...codes(9, "SOL TON SUI"),
  ...codes(10, "DOT"),
  ...codes(12, "XMR"),
  ...codes(18, "ETH WETH DAI ETC MATIC POL BNB AVAX LINK SHIB BUSD TUSD ARB OP FIL"),
};

const EXPONENTS: Readonly<Record<string, number>> = { ...ISO_4217_EXPONENTS, ...CRYPTO_EXPONENTS };

function codes(exponent: number, list: string): Record<string, number> {
  return Object.fromEntries(list.split(/\s+/).map((code) => [code, exponent]));
}

/** The number of decimals `code` may carry, or undefined for a currency this service does not know. */
export function currencyExponent(code: string): number | undefined {
  return Object.hasOwn(EXPONENTS, code) ? EXPONENTS[code] : undefined;
}

/** Whether `code` is an ISO 4217 currency (money banks move), as opposed to a crypto asset. */
export function isFiatCurrency(code: string): boolean {
  return Object.hasOwn(ISO_4217_EXPONENTS, code);
}

export function isKnownCurrency(code: string): boolean {
  return currencyExponent(code) !== undefined;
}
