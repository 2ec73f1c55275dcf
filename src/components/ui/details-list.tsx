import type { ReactNode } from "react";

/** A record's fields as a description list, label and value per row. */
export function DetailsList({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="details">
      {rows.map(([label, value]) => (
        <div key={label} style={{ display: "contents" }}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A record's `metadata` object, or a note that it has none. */
export function MetadataBlock({ metadata }: { metadata: Record<string, unknown> }) {
  return (
    <>
      <h3>Metadata</h3>
      {Object.keys(metadata).length === 0 ? <p className="muted">No metadata.</p> : <pre className="code">{JSON.stringify(metadata, null, 2)}</pre>}
    </>
  );
}
