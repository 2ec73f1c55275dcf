/** Longest value kept whole in an audit row's changes; longer ones are cut, marked with "…". */
const VALUE_MAX = 500;

/**
 * What a change did, for an audit row's details: `{ fields, changes: { field: { from, to } } }` for the named
 * fields. Only for fields whose values are not secret (never a password, a key, a webhook secret); a `Date` becomes
 * its ISO text, a long value is cut.
 */
export function auditChanges<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]) {
  return {
    fields: [...fields],
    changes: Object.fromEntries(fields.map((field) => [field, { from: auditValue(before[field]), to: auditValue(after[field]) }])),
  };
}

function auditValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text.length <= VALUE_MAX) return value;
  return `${text.slice(0, VALUE_MAX)}…`;
}
