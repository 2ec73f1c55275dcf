"use client";

import Link from "next/link";
import { useState } from "react";

/**
 * A value too long for its table cell (an id, an email, a reference, JSON details): shown cut to the cell's
 * width with an ellipsis, in full (wrapped in place, never wider) on hover and while it or its copy button has
 * focus, and copied whole by the button beside it. The full text is always in the page, so screen readers,
 * find-in-page and selection get all of it. `width` is the most it takes before cutting, in characters.
 */
export function LongValue({
  value,
  what,
  href,
  code = false,
  width = 18,
}: {
  value: string;
  /** What the value is, for the copy button's name: "payment id", "email". */
  what: string;
  href?: string;
  code?: boolean;
  width?: number;
}) {
  const text = code ? <code>{value}</code> : value;
  return (
    <span className="long-value" style={{ ["--long-value-width" as string]: `${width}ch` }}>
      {/* The link itself is what is cut, so its box is what shows: a click lands on it, not beside it. */}
      {href ? (
        <Link href={href} className="long-value-text" title={value}>
          {text}
        </Link>
      ) : (
        <span className="long-value-text" title={value}>
          {text}
        </span>
      )}
      <CopyIconButton value={value} label={`Copy ${what}`} />
    </span>
  );
}

/** A small copy button for tables: the icon turns into a tick, and the result is announced. */
export function CopyIconButton({ value, label }: { value: string; label: string }) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
    setTimeout(() => setStatus("idle"), 2000);
  }
  return (
    <>
      <button type="button" className="copy-icon" onClick={copy} aria-label={label} title={label}>
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
          {status === "copied" ? (
            <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
          ) : (
            <path d="M5 5V2.5h8.5V11H11M2.5 5H11v8.5H2.5z" fill="none" stroke="currentColor" strokeWidth="1.5" />
          )}
        </svg>
      </button>
      <span role="status" className="visually-hidden">
        {status === "copied" ? "Copied." : status === "failed" ? "Could not copy: select the text and copy it." : ""}
      </span>
    </>
  );
}
