import { formatMoney } from "@/lib/format-money";
import { message, type MessageKey } from "./messages";
import type { PageLocale } from "./locale";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Every value the merchant, the payer or the catalogue supplies goes through this before it meets markup. */
export const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The page's words and formats in the payer's locale; `t` escapes the values it places into the text. */
export function texts(locale: PageLocale) {
  return {
    t: (key: MessageKey, values: Record<string, string> = {}) =>
      message(locale.language, key, Object.fromEntries(Object.entries(values).map(([name, value]) => [name, escape(value)]))),
    /** Like `t`, for values that are already markup (a link, an emphasised amount). */
    tHtml: (key: MessageKey, html: Record<string, string>) => message(locale.language, key, html),
    money: (amount: string, currency: string) => formatMoney(amount, currency, locale.format),
    // Payers are anywhere: the time is written in UTC and says so.
    time: (iso: string) =>
      new Intl.DateTimeFormat(locale.format, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso)) + " UTC",
  };
}
export type Texts = ReturnType<typeof texts>;

/** A value the payer may need to type elsewhere, with its copy button (shown by the live script when it can copy). */
export function copyable(shown: string, value: string, what: string, words: Texts): string {
  return (
    `<code class="value">${escape(shown)}</code>` +
    `<button type="button" class="copy" data-copy="${escape(value)}" aria-label="${words.t("copy.what", { what })}" hidden>${words.t("copy")}</button>`
  );
}
