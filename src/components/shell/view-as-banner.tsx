"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import styles from "./view-as-banner.module.css";

export interface ViewAsBannerProps {
  merchantId: string;
  name: string;
  /** When the grant ends (ISO 8601). */
  until: string;
  /** The server's clock when the page was rendered: the first render's minutes, the same on both sides. */
  now: string;
}

/**
 * Shown on every page while a staff session views a merchant read-only (docs/team-and-security.md, "Viewing as a
 * merchant"): whose dashboard, the minutes left, and Stop (`staff.stopViewAs`, then back to the staff console's page
 * of the merchant). When the grant runs out the view is stopped the same way (its end audited as expired), so the
 * tab does not linger on pages whose data the session may no longer read.
 */
export function ViewAsBanner({ merchantId, name, until, now: renderedAt }: ViewAsBannerProps) {
  const trpc = useTRPC();
  const [now, setNow] = useState(() => Date.parse(renderedAt));
  const end = Date.parse(until);
  const back = `/dashboard/staff/merchants/${encodeURIComponent(merchantId)}`;
  const stop = useMutation(trpc.staff.stopViewAs.mutationOptions({ onSuccess: () => window.location.assign(back) }));
  const ended = useRef(false);

  useEffect(() => {
    const tick = () => setNow(Date.now());
    tick();
    const every = window.setInterval(tick, 5_000);
    const atEnd = window.setTimeout(tick, Math.max(0, end - Date.now()) + 50);
    return () => {
      window.clearInterval(every);
      window.clearTimeout(atEnd);
    };
  }, [end]);

  const left = end - now;
  useEffect(() => {
    if (left > 0 || ended.current) return;
    ended.current = true;
    // Recorded as ended (expired) and back to the console, whether or not the record could be made.
    stop.mutate(undefined, { onSettled: () => window.location.assign(back) });
  }, [left, stop, back]);

  const minutes = Math.max(0, Math.ceil(left / 60_000));
  return (
    <section className={styles.banner} aria-label="Viewing as a merchant">
      <p className={styles.text}>
        Viewing <strong>{name}</strong> as support — read-only,{" "}
        {left > 0 ? `${minutes} ${minutes === 1 ? "minute" : "minutes"} left` : "the time is up"}
      </p>
      <button type="button" className={`btn btn-small ${styles.stop}`} onClick={() => stop.mutate()} disabled={stop.isPending}>
        {stop.isPending ? "Stopping…" : "Stop viewing"}
      </button>
      {stop.error ? (
        <p className={styles.error} role="alert">
          Could not stop: {stop.error.message}
        </p>
      ) : null}
    </section>
  );
}
