"use client";

import { useState, type FormEvent } from "react";
import { useUrlParams } from "@/components/ui/use-url-params";

const PRESETS = [7, 30, 90, 365] as const;
const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export type StatsBasis = "created" | "occurred";
export interface StatsWindow {
  from: string;
  to: string;
  basis: StatsBasis;
  /** The preset it came from, or null for a custom range. */
  days: number | null;
}

/** The last `days` UTC days up to today. */
export function lastDays(days: number, now = new Date()) {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return { from, to };
}

/**
 * The statistics window, read from and written to the URL (`?days=90`, or `?from=…&to=…` for a custom range,
 * and `&basis=occurred`): reload and Back keep it, a link shares it. Default: the last 30 days by creation.
 */
export function useStatsWindow() {
  const { params, update } = useUrlParams();
  const basis: StatsBasis = params.get("basis") === "occurred" ? "occurred" : "created";
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  const days = Number(params.get("days") ?? 30);
  const window: StatsWindow =
    ISO_DAY.test(from) && ISO_DAY.test(to)
      ? { from, to, basis, days: null }
      : { ...lastDays(PRESETS.includes(days as never) ? days : 30), basis, days: PRESETS.includes(days as never) ? days : 30 };
  return {
    window,
    setPreset: (preset: number) => update({ days: preset === 30 ? undefined : String(preset), from: undefined, to: undefined }),
    setRange: (range: { from: string; to: string }) => update({ days: undefined, ...range }),
    setBasis: (next: StatsBasis) => update({ basis: next === "created" ? undefined : next }),
  };
}

/** Window (a preset or a custom range of UTC days) and which time places a payment in a day. */
export function StatsWindowControls({ stats }: { stats: ReturnType<typeof useStatsWindow> }) {
  const { window } = stats;
  const [custom, setCustom] = useState(window.days === null);
  function applyRange(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const from = String(form.get("from") ?? "");
    const to = String(form.get("to") ?? "");
    if (ISO_DAY.test(from) && ISO_DAY.test(to)) stats.setRange(from <= to ? { from, to } : { from: to, to: from });
  }
  return (
    <div className="form-row" role="group" aria-label="Statistics window">
      <div className="field">
        <label htmlFor="stats-window">Window</label>
        <select
          id="stats-window"
          value={custom ? "custom" : String(window.days)}
          onChange={(event) => {
            if (event.target.value === "custom") return setCustom(true);
            setCustom(false);
            stats.setPreset(Number(event.target.value));
          }}
        >
          {PRESETS.map((value) => (
            <option key={value} value={value}>
              Last {value} days
            </option>
          ))}
          <option value="custom">Custom range…</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="stats-basis">Count payments by</label>
        <select id="stats-basis" value={window.basis} onChange={(event) => stats.setBasis(event.target.value as StatsBasis)}>
          <option value="created">When recorded here</option>
          <option value="occurred">When they happened</option>
        </select>
      </div>
      {custom ? (
        <form className="form-row" onSubmit={applyRange} aria-label="Custom range">
          <div className="field">
            <label htmlFor="stats-from">From (UTC day)</label>
            <input id="stats-from" name="from" type="date" required defaultValue={window.from} />
          </div>
          <div className="field">
            <label htmlFor="stats-to">To (UTC day)</label>
            <input id="stats-to" name="to" type="date" required defaultValue={window.to} />
          </div>
          <button type="submit" className="btn">
            Show range
          </button>
        </form>
      ) : null}
    </div>
  );
}
