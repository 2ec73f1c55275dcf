import { formatDateTime } from "./format";

/** A moment in a table cell: the UTC day over its time, so the column is as narrow as the day. */
export function When({ value, seconds = false }: { value: Date | string | null | undefined; seconds?: boolean }) {
  if (!value) return <>—</>;
  const iso = typeof value === "string" ? value : value.toISOString();
  const [day, time] = formatDateTime(iso).split(" ");
  return (
    <time className="when" dateTime={iso}>
      {day} <small>{seconds ? time : time?.slice(0, 5)} UTC</small>
    </time>
  );
}
