import Negotiator from "negotiator";
import { LANGUAGES, type Language } from "./messages";

export interface PageLocale {
  /** The catalogue the page's texts come from. */
  language: Language;
  /** The BCP 47 tag money and dates are formatted for: the payer's own region when they sent one ("de-CH"). */
  format: string;
}

/**
 * The payer's language (docs/invoices.md, "The payer's language"): `?lang=` from the page's switcher wins, then
 * the best of `Accept-Language` (q-values weighed by negotiator), then English. Money and dates follow the
 * payer's most preferred tag of that language, so a Swiss payer reading German sees "CHF 1’234.50".
 */
export function pageLocale(request: Request): PageLocale {
  const acceptLanguage = request.headers.get("accept-language") ?? "";
  const asked = new URL(request.url).searchParams.get("lang");
  const negotiator = new Negotiator({ headers: { "accept-language": acceptLanguage } });
  const language = LANGUAGES.find((candidate) => candidate === asked) ?? (negotiator.language(LANGUAGES) as Language | undefined) ?? "en";
  const regional = negotiator.languages().find((tag) => tag.toLowerCase().split("-")[0] === language && isFormattable(tag));
  return { language, format: regional ?? language };
}

function isFormattable(tag: string): boolean {
  try {
    return Intl.NumberFormat.supportedLocalesOf(tag).length > 0;
  } catch {
    return false;
  }
}
