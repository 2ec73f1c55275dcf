"use client";

import { useState } from "react";

/**
 * Every dashboard action that cannot be undone (revoke, remove, delete, void, rotate) asks first, the same way: its
 * button gives way, in place, to the question, a "Yes, …" button (focused, so Enter confirms and a screen reader
 * reads it) and Cancel. No browser `confirm()` dialog: it blocks the page, looks different in every browser and
 * some embedded browsers never show it. The question closes once the action has gone through; if it failed, it
 * stays open beside the card's error, to try again or cancel.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  busyLabel,
  onConfirm,
  onOpen,
  busy = false,
  danger = true,
  small = true,
  ariaLabel,
  procedure,
}: {
  /** The button's text ("Revoke…"). */
  label: string;
  /** What happens, asked ("Revoke now? Calls with it fail at once."). */
  question: string;
  /** The confirming button's text ("Yes, revoke"). */
  confirmLabel: string;
  /** The confirming button's text while the action runs ("Revoking…"); the confirm label when absent. */
  busyLabel?: string;
  /** Runs the action; a rejected promise, or `false` (a submission that failed), keeps the question open. */
  onConfirm: () => Promise<unknown>;
  /** Called when the question opens (a submission's `startOver`: a new confirmation is a new action). */
  onOpen?: () => void;
  busy?: boolean;
  /** Both buttons in the danger style (the default), or a plain button and a primary "Yes" (a roll, which loses nothing). */
  danger?: boolean;
  small?: boolean;
  /** The button's accessible name when its text alone is ambiguous in a table ("Revoke key …a1b2"). */
  ariaLabel?: string;
  /** The tRPC procedure it calls (`data-procedure`, read by the role tests: docs/team-and-security.md). */
  procedure?: string;
}) {
  const [open, setOpen] = useState(false);
  const size = small ? " btn-small" : "";
  if (!open) {
    return (
      <button
        type="button"
        className={`btn${size}${danger ? " btn-danger" : ""}`}
        data-procedure={procedure}
        aria-label={ariaLabel}
        onClick={() => {
          onOpen?.();
          setOpen(true);
        }}
      >
        {label}
      </button>
    );
  }
  const confirm = async () => {
    try {
      if ((await onConfirm()) !== false) setOpen(false);
    } catch {
      // The mutation's own state holds the error for the card to show; the question stays open.
    }
  };
  return (
    <span className="form-row" role="group" aria-label={question}>
      <span>{question}</span>
      <button type="button" className={`btn${size} ${danger ? "btn-danger" : "btn-primary"}`} autoFocus disabled={busy} onClick={() => void confirm()}>
        {busy && busyLabel ? busyLabel : confirmLabel}
      </button>
      <button type="button" className={`btn${size}`} onClick={() => setOpen(false)}>
        Cancel
      </button>
    </span>
  );
}
