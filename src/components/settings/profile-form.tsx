"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { ErrorMessage, Loading } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

export function ProfileForm() {
  const trpc = useTRPC();
  const { mayCall } = usePermissions();
  const refreshAfterWrite = useRefreshAfterWrite();
  const profile = useQuery(trpc.merchants.profile.queryOptions());
  const [saved, setSaved] = useState(false);
  const update = useMutation(
    trpc.merchants.update.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await refreshAfterWrite(trpc.merchants.pathKey());
      },
    }),
  );
  const fieldErrors = Object.fromEntries(
    ((update.error?.data as { errors?: { path: string; message: string }[] } | undefined)?.errors ?? []).map((error) => [
      error.path.split(".").pop(),
      error.message,
    ]),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const website = String(form.get("website") ?? "").trim();
    const instructions = String(form.get("paymentInstructions") ?? "").trim();
    update.mutate({ name: String(form.get("name") ?? "").trim(), website: website || null, paymentInstructions: instructions || null });
  }

  // A role that may not save sees the profile, read-only.
  const writes = mayCall("merchants.update");
  if (profile.isPending) return <Loading what="your profile" retry={profile.refetch} />;
  if (profile.isError) return <ErrorMessage error={profile.error} what="your profile" retry={profile.refetch} />;
  return (
    <form className="form" onSubmit={submit} onChange={() => setSaved(false)} aria-labelledby="profile-heading" data-procedure={writes ? "merchants.update" : undefined}>
      <h2 id="profile-heading">Profile</h2>
      <fieldset disabled={!writes} className="form" style={{ border: "none", padding: 0, margin: 0 }}>
        <dl className="details">
          <dt>Merchant id</dt>
          <dd>
            <code>{profile.data.id}</code>
          </dd>
          <dt>Email</dt>
          <dd>{profile.data.email}</dd>
        </dl>
        <Field id="profile-name" name="name" label="Business name" required defaultValue={profile.data.name} error={fieldErrors.name} />
        <Field id="profile-website" name="website" type="url" label="Website" defaultValue={profile.data.website ?? ""} error={fieldErrors.website} />
        <div className="field">
          <label htmlFor="profile-instructions">Note for payers</label>
          <textarea
            id="profile-instructions"
            name="paymentInstructions"
            rows={4}
            maxLength={2000}
            defaultValue={profile.data.paymentInstructions ?? ""}
            aria-describedby="profile-instructions-hint"
            aria-invalid={fieldErrors.paymentInstructions ? true : undefined}
          />
          <p id="profile-instructions-hint" className="field-hint">
            Shown on every open invoice&apos;s checkout page under your payment methods: another way to pay, or whom to ask. Plain text.
          </p>
          {fieldErrors.paymentInstructions ? <p className="field-error">{fieldErrors.paymentInstructions}</p> : null}
        </div>
      </fieldset>
      {writes ? (
        <div>
          <button type="submit" className="btn btn-primary" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save profile"}
          </button>
        </div>
      ) : null}
      {saved ? (
        <p className="alert alert-success" role="status">
          Profile saved.
        </p>
      ) : null}
      {update.error ? (
        <p className="alert alert-error" role="alert">
          {update.error.message}
        </p>
      ) : null}
    </form>
  );
}
