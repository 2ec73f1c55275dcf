"use client";

import { useState } from "react";

/** Copies `value` to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
    setTimeout(() => setStatus("idle"), 2500);
  }
  return (
    <>
      <button type="button" className="btn btn-small" onClick={copy}>
        {label}
      </button>
      <span role="status" className="muted">
        {status === "copied" ? "Copied." : status === "failed" ? "Could not copy: select the text and copy it." : ""}
      </span>
    </>
  );
}
