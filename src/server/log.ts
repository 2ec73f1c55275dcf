import pino, { type DestinationStream, type Logger } from "pino";
import { serializeError } from "./log-error";

/**
 * Structured JSON logs. Redaction is a second line of defence: code never passes secrets to the logger,
 * and these paths are censored if someone does.
 */
export const REDACT_PATHS = [
  "password",
  "*.password",
  "apiKey",
  "*.apiKey",
  "webhookSecret",
  "*.webhookSecret",
  "secret",
  "*.secret",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "merchant-payments" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      // Every `err` logged anywhere: a failed query keeps its SQL and code, never its bound values.
      serializers: { err: serializeError },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

const unredactedChildren = new WeakMap<Logger, Logger>();

/**
 * The same logger without redaction, for hot lines made only of values our own code builds (ids, statuses,
 * route templates, timings), never of input: redaction costs more than the rest of such a line
 * (measured: ≈ 13 µs of a ≈ 22 µs access-log line). Anything that may carry input keeps the redacting logger.
 */
export function unredacted(log: Logger): Logger {
  let child = unredactedChildren.get(log);
  if (!child) {
    child = log.child({}, { redact: { paths: [] } });
    unredactedChildren.set(log, child);
  }
  return child;
}
