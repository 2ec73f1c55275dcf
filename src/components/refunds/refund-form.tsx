"use client";

import { useState, type FormEvent } from "react";
import { formatMoney } from "@/lib/format-money";
import { useSubmission } from "@/components/ui/use-submission";
import { useTRPC } from "@/lib/trpc/client";
import { REFUND_REASON_LABELS, type RefundCreateInput, type RefundReason } from "./types";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

type How = "succeeded" | "pending" | "claim";
/** The form's values, reviewed before they are sent: the create input's fields plus how it is recorded. */
type Draft = Required<Pick<RefundCreateInput, "amount" | "reason" | "note">> & { how: How };

const HOW_LABELS: Record<How, string> = {
  succeeded: "Already refunded at my processor or bank (record it as succeeded)",
  pending: "Started, not yet through (record it as pending)",
  claim: "Ask the payer where to send it (claim link)",
};

/**
 * Refund a payment in three clicks (docs/refunds.md): "Refund…" opens this form with the refundable amount
 * prefilled, "Review" shows what will be recorded, "Confirm refund" records it once (a double click records once).
 * `as="staff"` is support staff refunding for the payment's merchant: the note is then required and audit-logged.
 */
export function RefundForm({
  payment,
  refundable,
  as,
  merchantId,
  startOpen = false,
}: {
  payment: { id: string; currency: string };
  refundable: string;
  as: "merchant" | "staff";
  merchantId?: string;
  startOpen?: boolean;
}) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const [open, setOpen] = useState(startOpen);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const onSuccess = async () => {
    await refreshAfterWrite(trpc.refunds.pathKey(), trpc.payments.pathKey());
  };
  const own = useSubmission(trpc.refunds.create.mutationOptions({ onSuccess }));
  const staff = useSubmission(trpc.refunds.staff.create.mutationOptions({ onSuccess }));
  const create = as === "staff" ? staff : own;
  const nothingLeft = /^0(\.0+)?$/.test(refundable);

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setDraft({
      amount: String(form.get("amount") ?? "").trim(),
      reason: String(form.get("reason")) as RefundReason,
      how: String(form.get("how")) as How,
      note: String(form.get("note") ?? "").trim(),
    });
  }

  async function confirm() {
    if (!draft) return;
    const input = {
      paymentId: payment.id,
      amount: draft.amount,
      reason: draft.reason,
      ...(draft.note ? { note: draft.note } : {}),
      ...(draft.how === "claim" ? { claim: {} } : { status: draft.how }),
    };
    const refund = as === "staff" ? await staff.submit({ ...input, note: draft.note, merchantId: merchantId ?? "" }) : await own.submit(input);
    if (!refund) return;
    setDone(
      refund.claimUrl
        ? `Refund ${refund.id} created. Send the payer this claim link: ${refund.claimUrl}`
        : `Refund ${refund.id} recorded: ${formatMoney(refund.amount, refund.currency)}, ${refund.status}.`,
    );
    setDraft(null);
    setOpen(false);
    own.startOver();
    staff.startOver();
  }

  return (
    <div>
      {done ? (
        <p className="alert alert-success" role="status" data-testid="refund-done">
          {done}
        </p>
      ) : null}
      {!open ? (
        <button type="button" className="btn btn-primary" data-procedure={as === "staff" ? "refunds.staff.create" : "refunds.create"} disabled={nothingLeft} onClick={() => (setOpen(true), setDone(null))}>
          {nothingLeft ? "Fully refunded" : "Refund…"}
        </button>
      ) : draft ? (
        <div className="card" role="group" aria-labelledby="refund-review-heading">
          <h3 id="refund-review-heading">Confirm the refund</h3>
          <p data-testid="refund-review">
            Refund <strong>{formatMoney(draft.amount || "0", payment.currency)}</strong> of payment <code>{payment.id}</code> — {HOW_LABELS[draft.how].toLowerCase()}.
            {draft.how === "succeeded" ? " The payment's refunded amount changes now and your endpoints get refund.succeeded." : ""}
          </p>
          <div className="form-row">
            <button type="button" className="btn btn-primary" disabled={create.pending} onClick={() => void confirm()}>
              {create.pending ? "Refunding…" : "Confirm refund"}
            </button>
            <button type="button" className="btn" onClick={() => setDraft(null)}>
              Back
            </button>
          </div>
          {create.error ? (
            <p className="alert alert-error" role="alert">
              {create.error.message}
            </p>
          ) : null}
        </div>
      ) : (
        <form className="card form" onSubmit={review} aria-label="Refund this payment">
          <div className="field">
            <label htmlFor="refund-amount">Amount ({payment.currency})</label>
            <input id="refund-amount" name="amount" required inputMode="decimal" defaultValue={refundable} aria-describedby="refund-amount-hint" />
            <p id="refund-amount-hint" className="field-hint">
              At most {formatMoney(refundable, payment.currency)} is still refundable.
            </p>
          </div>
          <div className="field">
            <label htmlFor="refund-reason">Reason</label>
            <select id="refund-reason" name="reason" defaultValue="requested_by_customer">
              {Object.entries(REFUND_REASON_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="field">
            <legend>How</legend>
            {Object.entries(HOW_LABELS).map(([value, label]) => (
              <label key={value} className="radio">
                <input type="radio" name="how" value={value} defaultChecked={value === "succeeded"} /> {label}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="refund-note">Note{as === "staff" ? " (required: why support refunds for the merchant)" : " (optional, never shown to the payer)"}</label>
            <textarea id="refund-note" name="note" maxLength={1000} required={as === "staff"} />
          </div>
          <div className="form-row">
            <button type="submit" className="btn btn-primary">
              Review
            </button>
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
