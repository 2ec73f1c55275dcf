"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { ErrorMessage, Loading } from "@/components/ui/states";
import { assetsOf, CRYPTO_NETWORKS, cryptoNetworks, type CryptoNetwork } from "@/lib/payment-methods/catalogue";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import type { inferRouterInputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** One method as the save procedure takes it (the type comes from the router, not from a server schema). */
type PaymentMethodInput = inferRouterInputs<AppRouter>["merchants"]["setPaymentMethods"]["methods"][number];
type Draft = PaymentMethodInput & { key: number };
type MethodType = PaymentMethodInput["type"];

const TYPE_NAMES: Record<MethodType, string> = { bank_transfer: "Bank transfer", crypto: "Crypto address", link: "Pay link" };
let nextKey = 0;
const draft = (method: PaymentMethodInput): Draft => ({ ...method, key: nextKey++ });
const blank = (type: MethodType): Draft =>
  draft(
    type === "bank_transfer"
      ? { type, accountHolder: "", iban: "", bic: null }
      : type === "crypto"
        ? { type, network: "bitcoin", asset: "BTC", address: "" }
        : { type, label: "", url: "" },
  );

/**
 * The ways to pay the checkout pages of this mode offer (docs/invoices.md, "Payment methods"): edited as a list
 * and saved whole, in the order payers see them. Networks and assets come from the one catalogue the server
 * validates against; each field's error comes back on its own path (`input.methods.N.field`).
 */
export function PaymentMethodsForm() {
  const trpc = useTRPC();
  const { mayCall } = usePermissions();
  const refreshAfterWrite = useRefreshAfterWrite();
  const current = useQuery(trpc.merchants.paymentMethods.queryOptions());
  const [methods, setMethods] = useState<Draft[] | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.merchants.setPaymentMethods.mutationOptions({
      onSuccess: async (result) => {
        setMethods(result.methods.map(draft));
        setSaved(true);
        await refreshAfterWrite(trpc.merchants.paymentMethods.queryKey());
      },
    }),
  );

  if (current.isPending) return <Loading what="your payment methods" retry={current.refetch} />;
  if (current.isError) return <ErrorMessage error={current.error} what="your payment methods" retry={current.refetch} />;
  const list = methods ?? current.data.methods.map(draft);
  const errors = new Map(
    ((save.error?.data as { errors?: { path: string; message: string }[] } | undefined)?.errors ?? []).map((error) => [error.path, error.message]),
  );
  const errorOf = (index: number, field: string) => errors.get(`input.methods.${index}.${field}`);

  function edit(next: Draft[]) {
    setSaved(false);
    setMethods(next);
  }
  const change = (index: number, fields: Partial<PaymentMethodInput>) => edit(list.map((method, i) => (i === index ? ({ ...method, ...fields } as Draft) : method)));
  const move = (index: number, by: number) => {
    const next = [...list];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    edit(next);
  };
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    save.mutate({ methods: list.map(({ key: _key, ...method }) => method) });
  }

  const mode = current.data.livemode ? "live" : "test";
  // A role that may not save sees the list, read-only.
  const writes = mayCall("merchants.setPaymentMethods");
  return (
    <form className="form" onSubmit={submit} aria-labelledby="payment-methods-heading" noValidate data-procedure={writes ? "merchants.setPaymentMethods" : undefined}>
      <h2 id="payment-methods-heading">Payment methods</h2>
      <p className="field-hint">
        How payers pay your invoices, shown on every {mode} invoice&apos;s checkout page in this order, with copy buttons and QR codes (a GiroCode for
        SEPA transfers in EUR; a wallet URI with the amount for crypto). A crypto address is offered on invoices in its asset only; bank transfers on
        invoices in a national currency. {current.data.livemode ? "Test invoices use the list you set in test mode." : "Live invoices use the list you set with test mode off."}
      </p>
      {list.length === 0 ? <p className="muted">No payment methods yet: payers only see your note below, if you wrote one.</p> : null}
      {list.map((method, index) => (
        <fieldset key={method.key} className="card method-fieldset" data-testid={`payment-method-${index}`} disabled={!writes}>
          <legend>
            {index + 1}. {TYPE_NAMES[method.type]}
          </legend>
          <MethodFields method={method} index={index} errorOf={errorOf} onChange={(fields) => change(index, fields)} />
          {errors.get(`input.methods.${index}`) ? <p className="field-error">{errors.get(`input.methods.${index}`)}</p> : null}
          {writes ? (
            <div className="form-row">
              <button type="button" className="btn btn-small" onClick={() => move(index, -1)} disabled={index === 0} aria-label={`Move method ${index + 1} up`}>
                Move up
              </button>
              <button type="button" className="btn btn-small" onClick={() => move(index, 1)} disabled={index === list.length - 1} aria-label={`Move method ${index + 1} down`}>
                Move down
              </button>
              <button type="button" className="btn btn-small btn-danger" onClick={() => edit(list.filter((_, i) => i !== index))} aria-label={`Remove method ${index + 1}`}>
                Remove
              </button>
            </div>
          ) : null}
        </fieldset>
      ))}
      {writes ? (
        <>
          <div className="form-row">
            {(Object.keys(TYPE_NAMES) as MethodType[]).map((type) => (
              <button key={type} type="button" className="btn" onClick={() => edit([...list, blank(type)])} disabled={list.length >= 10}>
                Add {TYPE_NAMES[type].toLowerCase()}
              </button>
            ))}
          </div>
          <div>
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save payment methods"}
            </button>
          </div>
        </>
      ) : null}
      {saved ? (
        <p className="alert alert-success" role="status">
          Payment methods saved.
        </p>
      ) : null}
      {save.error ? (
        <p className="alert alert-error" role="alert">
          {errors.size > 0 ? `Nothing was saved: ${errors.size === 1 ? "one field needs" : `${errors.size} fields need`} a fix (see the messages under them).` : save.error.message}
        </p>
      ) : null}
    </form>
  );
}

function MethodFields({
  method,
  index,
  errorOf,
  onChange,
}: {
  method: Draft;
  index: number;
  errorOf: (index: number, field: string) => string | undefined;
  onChange: (fields: Partial<PaymentMethodInput>) => void;
}) {
  const id = (field: string) => `method-${method.key}-${field}`;
  switch (method.type) {
    case "bank_transfer":
      return (
        <>
          <Field id={id("holder")} label="Account holder" value={method.accountHolder} maxLength={70} onChange={(event) => onChange({ accountHolder: event.target.value })} error={errorOf(index, "accountHolder")} />
          <Field id={id("iban")} label="IBAN" value={method.iban} autoComplete="off" spellCheck={false} onChange={(event) => onChange({ iban: event.target.value })} error={errorOf(index, "iban")} hint="Spaces are fine; the check digits are verified." />
          <Field id={id("bic")} label="BIC (optional)" value={method.bic ?? ""} autoComplete="off" spellCheck={false} onChange={(event) => onChange({ bic: event.target.value.trim() || null })} error={errorOf(index, "bic")} />
        </>
      );
    case "crypto": {
      const assets = Object.keys(assetsOf(method.network));
      return (
        <>
          <div className="form-row">
            <div className="field">
              <label htmlFor={id("network")}>Network</label>
              <select
                id={id("network")}
                value={method.network}
                onChange={(event) => {
                  const network = event.target.value as CryptoNetwork;
                  const carried = Object.keys(assetsOf(network));
                  onChange({ network, asset: carried.includes(method.asset) ? method.asset : carried[0]! });
                }}
              >
                {cryptoNetworks.map((network) => (
                  <option key={network} value={network}>
                    {CRYPTO_NETWORKS[network].name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={id("asset")}>Asset</label>
              <select id={id("asset")} value={method.asset} onChange={(event) => onChange({ asset: event.target.value })} aria-invalid={errorOf(index, "asset") ? true : undefined}>
                {assets.map((asset) => (
                  <option key={asset} value={asset}>
                    {asset}
                  </option>
                ))}
              </select>
              {errorOf(index, "asset") ? <p className="field-error">{errorOf(index, "asset")}</p> : null}
            </div>
          </div>
          <Field id={id("address")} label="Receiving address" value={method.address} autoComplete="off" spellCheck={false} onChange={(event) => onChange({ address: event.target.value })} error={errorOf(index, "address")} hint="Checked with the network's checksum." />
        </>
      );
    }
    case "link":
      return (
        <>
          <Field id={id("label")} label="Button text" value={method.label} maxLength={60} placeholder="Pay with PayPal" onChange={(event) => onChange({ label: event.target.value })} error={errorOf(index, "label")} />
          <Field id={id("url")} label="Pay page URL (https)" type="url" value={method.url} placeholder="https://" onChange={(event) => onChange({ url: event.target.value })} error={errorOf(index, "url")} />
        </>
      );
  }
}
