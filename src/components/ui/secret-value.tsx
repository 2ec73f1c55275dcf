"use client";

import { useState } from "react";
import { CopyButton } from "./copy-button";

const MASK = "••••••••••••••••••••";

/**
 * A secret shown masked until a deliberate click. Either the value is already here (`value`, e.g. just
 * created) or it is fetched on reveal (`reveal`), so it is not in the page until asked for. A secret shown
 * only this once (a new API key) starts unmasked (`shownAtFirst`): a reveal step there only risks the user
 * leaving without copying it.
 */
export function SecretValue({
  label,
  value,
  reveal,
  hint,
  shownAtFirst = false,
  procedure,
}: {
  label: string;
  value?: string;
  reveal?: () => Promise<string>;
  hint?: string;
  shownAtFirst?: boolean;
  /** The procedure `reveal` calls, marked on its button (data-procedure: what the role may call, tested end to end). */
  procedure?: string;
}) {
  const [shown, setShown] = useState<string | null>(shownAtFirst && value !== undefined ? value : null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  async function show() {
    setError(null);
    if (value !== undefined) return setShown(value);
    if (!reveal) return;
    setLoading(true);
    try {
      setShown(await reveal());
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : "Could not reveal the secret.");
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className="secret">
      <span className="visually-hidden">{label}:</span>
      <code aria-label={shown ? label : `${label} (hidden)`}>{shown ?? (hint ? `${MASK} ${hint}` : MASK)}</code>
      {shown ? (
        <>
          <button type="button" className="btn btn-small" onClick={() => setShown(null)}>
            Hide
          </button>
          <CopyButton value={shown} label={`Copy ${label.toLowerCase()}`} />
        </>
      ) : value === undefined && !reveal ? null : (
        <button type="button" className="btn btn-small" onClick={show} disabled={loading} data-procedure={value === undefined ? procedure : undefined}>
          {loading ? "Revealing…" : `Reveal ${label.toLowerCase()}`}
        </button>
      )}
      {error ? <p role="alert" className="field-error">{error}</p> : null}
    </div>
  );
}
