"use client";

import { useTransition } from "react";
import { setTestModeAction } from "@/app/dashboard/test-mode-actions";

/**
 * The header's test-mode switch (docs/test-mode.md). Flipping it sets the mode cookie, then reloads the page:
 * every list, count and cached query on screen belongs to the mode it was fetched in, so nothing is kept.
 */
export function TestModeSwitch({ testMode }: { testMode: boolean }) {
  const [pending, startTransition] = useTransition();
  const toggle = () =>
    startTransition(async () => {
      await setTestModeAction(!testMode);
      window.location.reload();
    });
  return (
    <button
      type="button"
      role="switch"
      aria-checked={testMode}
      className={`mode-switch${testMode ? " mode-switch-on" : ""}`}
      onClick={toggle}
      disabled={pending}
    >
      <span className="mode-switch-track" aria-hidden="true">
        <span className="mode-switch-thumb" />
      </span>
      Test mode
    </button>
  );
}
