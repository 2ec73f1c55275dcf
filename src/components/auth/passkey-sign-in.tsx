"use client";

import { startAuthentication } from "@simplewebauthn/browser";
import { useState } from "react";
import { finishWithPasskey, passkeyOptionsForSecondStep, startPasskeySignInAction } from "@/app/(auth)/sign-in-actions";

/** Asks the browser for a passkey answering `options`, and hands it to the server; an error message, or null once redirected. */
async function answerWithPasskey(options: unknown, callbackUrl: string): Promise<string | null> {
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
  } catch {
    return "No passkey was used. Try again, or use another way.";
  }
  const result = await finishWithPasskey(callbackUrl, JSON.stringify(response));
  return result.error ?? null;
}

/** "Sign in with a passkey": no email or password, the passkey names and verifies the person. */
export function PasskeySignInButton({ callbackUrl }: { callbackUrl: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function signIn() {
    setPending(true);
    setError(null);
    try {
      const { options } = await startPasskeySignInAction();
      setError(await answerWithPasskey(options, callbackUrl));
    } finally {
      setPending(false);
    }
  }
  return (
    <>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="button" className="btn" onClick={() => void signIn()} disabled={pending}>
        {pending ? "Waiting for the passkey…" : "Use a passkey"}
      </button>
    </>
  );
}

/** A passkey as the second step, after the password. */
export function PasskeySecondStepButton({ callbackUrl, onError }: { callbackUrl: string; onError: (message: string) => void }) {
  const [pending, setPending] = useState(false);
  async function verify() {
    setPending(true);
    try {
      const { options, error } = await passkeyOptionsForSecondStep();
      const message = error ?? (await answerWithPasskey(options, callbackUrl));
      if (message) onError(message);
    } finally {
      setPending(false);
    }
  }
  return (
    <button type="button" className="btn" onClick={() => void verify()} disabled={pending}>
      {pending ? "Waiting for the passkey…" : "Use a passkey"}
    </button>
  );
}
