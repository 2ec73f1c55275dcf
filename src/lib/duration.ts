// Durations such as "0", "500ms", "5s", "5m", "2h", "1d" → milliseconds. A bare number means milliseconds.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration (examples: 500ms, 5s, 5m, 2h, 1d)`);
  const value = Number(match[1]);
  return Math.round(value * UNIT_MS[match[2] ?? "ms"]!);
}

export function parseDurationList(text: string): number[] {
  return text.split(",").map((part) => parseDuration(part));
}
