import { friendlyFormatIBAN } from "ibantools";
import { CRYPTO_NETWORKS } from "@/lib/payment-methods/catalogue";
import type { Checkout } from "@/server/services/invoices/get-checkout";
import type { CheckoutMethod } from "@/server/services/payment-methods/offer";
import { copyable, escape, type Texts } from "./html";
import { qrSvg } from "./qr-svg";

/**
 * "How to pay": one `<details>` per method, in one exclusive group (`name`), the first open, so the payer
 * picks a method without any script. Each value a payer copies has a copy button; QR codes are inline SVG.
 */
export async function renderMethods(checkout: Checkout, words: Texts): Promise<string> {
  const { t } = words;
  if (checkout.paymentMethods.length === 0) {
    return checkout.paymentInstructions ? "" : `<p data-testid="checkout-no-methods">${t("methods.none", { merchant: checkout.merchantName })}</p>`;
  }
  const panels = await Promise.all(checkout.paymentMethods.map((method, index) => renderMethod(checkout, method, index, words)));
  return `<p>${t("methods.choose")}</p><div class="methods">${panels.join("")}</div>`;
}

async function renderMethod(checkout: Checkout, method: CheckoutMethod, index: number, words: Texts): Promise<string> {
  const { t } = words;
  const amount = row(t("field.amount"), copyable(words.money(checkout.amountDue, checkout.currency), checkout.amountDue, t("field.amount"), words));
  const reference = row(t("field.reference"), copyable(checkout.id, checkout.id, t("field.reference"), words));
  let title: string;
  let body: string;
  switch (method.type) {
    case "bank_transfer": {
      title = t("method.bank_transfer");
      const fields = [
        row(t("field.accountHolder"), copyable(method.accountHolder, method.accountHolder, t("field.accountHolder"), words)),
        row(t("field.iban"), copyable(friendlyFormatIBAN(method.iban) ?? method.iban, method.iban, t("field.iban"), words)),
        method.bic ? row(t("field.bic"), copyable(method.bic, method.bic, t("field.bic"), words)) : "",
        amount,
        reference,
      ];
      const label = t("bank.qrLabel", { amount: words.money(checkout.amountDue, checkout.currency), holder: method.accountHolder });
      body = `<dl class="fields">${fields.join("")}</dl>` + (method.qrPayload ? await figure(method.qrPayload, label, t("bank.qr")) : "");
      break;
    }
    case "crypto": {
      const network = CRYPTO_NETWORKS[method.network].name;
      title = t("method.crypto", { asset: method.asset, network });
      const fields = [row(t("field.address", { network }), copyable(method.address, method.address, t("field.address", { network }), words)), amount, reference];
      const label = t("crypto.qrLabel", { amount: words.money(checkout.amountDue, checkout.currency), network });
      body =
        `<p class="warning">${t("crypto.warning", { asset: method.asset, network })}</p>` +
        `<dl class="fields">${fields.join("")}</dl>` +
        (method.qrPayload
          ? (await figure(method.qrPayload, label, t("crypto.qr"))) + `<p><a class="button" href="${escape(method.qrPayload)}">${t("crypto.open")}</a></p>`
          : "");
      break;
    }
    case "link": {
      title = escape(method.label);
      body =
        `<p>${t("link.body", { host: new URL(method.url).host, merchant: checkout.merchantName })}</p>` +
        `<dl class="fields">${reference}</dl>` +
        `<p><a class="button" href="${escape(method.url)}" rel="noreferrer noopener">${escape(method.label)}</a></p>`;
      break;
    }
  }
  return (
    `<details class="method" name="payment-method" data-method="${index}" data-testid="checkout-method-${method.type}"${index === 0 ? " open" : ""}>` +
    `<summary>${title}</summary><div class="method-body">${body}</div></details>`
  );
}

function row(label: string, value: string): string {
  return `<div><dt>${label}</dt><dd>${value}</dd></div>`;
}

async function figure(payload: string, label: string, caption: string): Promise<string> {
  return `<figure class="qr"><div role="img" aria-label="${label}">${await qrSvg(payload)}</div><figcaption>${caption}</figcaption></figure>`;
}
