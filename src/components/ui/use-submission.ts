"use client";

import { useMutation, type UseMutationOptions } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";

/**
 * Every dashboard form that creates something (or acts for staff) submits through this hook (docs/dashboard.md,
 * "Forms that create"):
 * - **One idempotency key per form instance**, sent with the input (the procedure's `submissionOf` shape; the
 *   upload sends it as `Idempotency-Key`). The server runs a key's submission once and answers a repeat with the
 *   first answer, so a double click, a retried request or the same values sent again make nothing twice. The key
 *   is renewed when the input differs from what it was sent with (the user changed the form), and by `startOver`
 *   (the form's result was dismissed: the next submission is a new one).
 * - **Pending means disabled, from the click on**: a second submit while one is under way is dropped before it
 *   leaves the browser (a ref, not state: state is not updated yet when a double click's second click arrives).
 */
export function useSubmission<TInput, TOutput, TError = Error>(
  options: UseMutationOptions<TOutput, TError, { idempotencyKey: string; input: TInput }>,
) {
  const mutation = useMutation(options);
  const { submit, pending, startOver } = useSubmitOnce<TInput, TOutput>((idempotencyKey, input) =>
    mutation.mutateAsync({ idempotencyKey, input }),
  );
  return { ...mutation, submit, pending: pending || mutation.isPending, startOver };
}

/**
 * The same guard and key for a submission that is not a tRPC mutation (the settlement file upload): `send`
 * gets the key to put in its request.
 */
export function useSubmitOnce<TInput, TOutput>(send: (idempotencyKey: string, input: TInput) => Promise<TOutput>) {
  const key = useRef<{ value: string; sentWith: string } | null>(null);
  const inFlight = useRef(false);
  const [pending, setPending] = useState(false);

  const submit = useCallback(
    async (input: TInput, fingerprint: string = stableText(input)): Promise<TOutput | undefined> => {
      if (inFlight.current) return undefined;
      if (!key.current || key.current.sentWith !== fingerprint) key.current = { value: newKey(), sentWith: fingerprint };
      inFlight.current = true;
      setPending(true);
      try {
        return await send(key.current.value, input);
      } catch {
        return undefined; // the mutation's own state holds the error for the form to show
      } finally {
        inFlight.current = false;
        setPending(false);
      }
    },
    [send],
  );

  const startOver = useCallback(() => {
    key.current = null;
  }, []);

  return { submit, pending, startOver };
}

/** 128 random bits as hex: `crypto.randomUUID` needs a secure context, `getRandomValues` does not. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function stableText(value: unknown): string {
  return JSON.stringify(value, (_name, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
