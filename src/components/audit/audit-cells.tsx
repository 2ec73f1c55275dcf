import { LongValue } from "@/components/ui/long-value";

/*
 * The cells an audit entry shows the same way in the merchant's Audit log and in the staff console's: what it
 * touched, what changed, and where from. Long values truncate with the full value on hover, focus and copy.
 */

interface Entry {
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
}

export function AuditTarget({ entry, width }: { entry: Entry; width: number }) {
  return (
    <span className="stack">
      <span>{entry.targetType}</span>
      {entry.targetId ? <LongValue value={entry.targetId} what="target id" code width={width} /> : null}
    </span>
  );
}

export function AuditDetails({ entry, width }: { entry: Entry; width: number }) {
  return entry.details ? <LongValue value={JSON.stringify(entry.details)} what="details" code width={width} /> : <>—</>;
}

export function AuditClient({ entry }: { entry: Entry }) {
  return (
    <span className="stack">
      {entry.ip ? <LongValue value={entry.ip} what="IP address" code width={15} /> : "—"}
      {entry.userAgent ? <LongValue value={entry.userAgent} what="user agent" width={18} /> : null}
    </span>
  );
}
