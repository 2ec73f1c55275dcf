import pino, { type DestinationStream, type Logger } from "pino";

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
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
