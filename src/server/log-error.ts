/**
 * How an error is written to the logs (pino's `err` serializer, registered in log.ts).
 *
 * Like pino's standard one (type, message, stack, own fields, causes), with one difference: a failed query
 * never carries the values it was run with. drizzle puts them in its message ("Failed query: …\nparams: …")
 * and a `params` field, PGlite in `params`, and PostgreSQL itself (node-postgres's errors carry its fields) in `detail`
 * ("Key (digest)=(…) already exists"), `where` ("portal parameter $1 = '…'") and some messages
 * ('invalid input syntax for type integer: "…"'). Those values can be API-key digests, merchant ids and
 * whatever a user typed. What stays is what a reader needs: the SQL text (placeholders only), the PostgreSQL
 * code, constraint, table and column, and the message with any bound value cut out.
 */

interface ErrorLike {
  name?: unknown;
  message: string;
  stack?: unknown;
  cause?: unknown;
  errors?: unknown;
  [field: string]: unknown;
}

/** The fields of a database error (PGlite's and node-postgres's names) that name what failed, never a value. */
const DATABASE_FIELDS = new Set([
  "code",
  "severity",
  "constraint",
  "constraint_name",
  "table",
  "table_name",
  "column",
  "column_name",
  "schema",
  "schema_name",
  "dataType",
  "data_type_name",
  "routine",
  "position",
  "hint",
  "query",
  "errno",
  "address",
  "port",
]);

const REDACTED = "[redacted]";
const MAX_CAUSES = 8;

export function serializeError(value: unknown): unknown {
  if (!isErrorLike(value)) return value;
  return serializeOne(value, boundValues(value), new Set());
}

function serializeOne(error: ErrorLike, values: string[], seen: Set<unknown>): Record<string, unknown> {
  seen.add(error);
  const database = isDatabaseError(error);
  const message = safeMessage(error.message, values);
  const serialized: Record<string, unknown> = {
    type: typeof error.constructor === "function" ? error.constructor.name : error.name,
    message,
    stack: typeof error.stack === "string" ? `${String(error.name ?? "Error")}: ${message}${framesOf(error.stack)}` : undefined,
  };
  for (const [key, field] of Object.entries(error)) {
    if (key === "cause" || key in serialized || (database && !DATABASE_FIELDS.has(key))) continue;
    serialized[key] = key === "query" ? field : serializeField(field, values, seen);
  }
  if (Array.isArray(error.errors) && error.errors.some(isErrorLike)) {
    serialized.aggregateErrors = error.errors.map((item) => serializeField(item, values, seen));
  }
  if (isErrorLike(error.cause) && !seen.has(error.cause) && seen.size < MAX_CAUSES) {
    serialized.cause = serializeOne(error.cause, values, seen);
  }
  return serialized;
}

function serializeField(field: unknown, values: string[], seen: Set<unknown>): unknown {
  if (typeof field === "string") return scrub(field, values);
  if (isErrorLike(field)) return seen.has(field) ? "[circular]" : serializeOne(field, values, seen);
  return field;
}

/** drizzle's "Failed query: <sql>\nparams: <values>" loses its values (the SQL holds placeholders only). */
function safeMessage(message: string, values: string[]): string {
  const paramsAt = message.indexOf("\nparams: ");
  if (message.startsWith("Failed query: ") && paramsAt >= 0) return message.slice(0, paramsAt);
  return scrub(message, values);
}

/** The stack's frames without its first lines, which repeat the unsafe message. */
function framesOf(stack: string): string {
  const frames = stack.split("\n").filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? `\n${frames.join("\n")}` : "";
}

/**
 * Cuts bound values out of a database's text: wherever PostgreSQL quotes one ("…", its style for values in
 * messages), and anywhere for values long enough not to be mistaken for ordinary words.
 */
function scrub(text: string, values: string[]): string {
  let result = text;
  for (const value of values) {
    result = result.replaceAll(`"${value}"`, `"${REDACTED}"`);
    if (value.length >= 8) result = result.replaceAll(value, REDACTED);
  }
  return result;
}

/** Every value bound to a failed query anywhere in the cause chain, as text. */
function boundValues(error: ErrorLike): string[] {
  const values = new Set<string>();
  const seen = new Set<unknown>();
  for (let current: unknown = error; isErrorLike(current) && !seen.has(current); current = current.cause) {
    seen.add(current);
    if (!Array.isArray(current.params)) continue;
    for (const item of current.params) {
      const text = item instanceof Date ? item.toISOString() : typeof item === "object" ? JSON.stringify(item) : String(item);
      if (text) values.add(text);
    }
  }
  // Longest first, so a value containing another is cut out whole.
  return [...values].sort((a, b) => b.length - a.length);
}

function isDatabaseError(error: ErrorLike): boolean {
  return "query" in error || "params" in error || (typeof error.severity === "string" && typeof error.code === "string");
}

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string";
}
