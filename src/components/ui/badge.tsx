import { statusLabel, statusTone, statusValues, type StatusKind, type StatusOf } from "@/lib/statuses";

/** A status in words, coloured by its tone (src/lib/statuses.ts holds both, for every kind of status). */
export function StatusBadge<K extends StatusKind>({ kind, status }: { kind: K; status: StatusOf<K> }) {
  return (
    <span className={`badge badge-${statusTone(kind, status)}`} data-status={status}>
      {statusLabel(kind, status)}
    </span>
  );
}

/** A filter's `<option>`s for every status of a kind, each in words (the value stays the stored one). */
export function StatusOptions<K extends StatusKind>({ kind }: { kind: K }) {
  return (
    <>
      {statusValues(kind).map((value) => (
        <option key={value} value={value}>
          {statusLabel(kind, value)}
        </option>
      ))}
    </>
  );
}
