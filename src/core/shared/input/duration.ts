// Durations: `500ms`, `30s`, `5m`, `2h`, `1d`, `1w`, combinations (`1h30m`) or bare seconds ↔ milliseconds.
import { usageError } from "../errors.js";

const UNITS = [
  ["w", 604_800_000],
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1_000],
  ["ms", 1],
] as const;
const UNIT_MS: Readonly<Record<string, number>> = Object.fromEntries(UNITS);

/** Milliseconds for a duration; throws a usage error (exit 2) on anything else. */
export function parseDuration(text: string): number {
  const t = text.trim();
  const bad = (why: string) =>
    usageError("invalid_duration", `invalid duration ${JSON.stringify(text)}: ${why} (use e.g. 500ms, 30s, 5m, 2h, 1d, 1w, 1h30m, or bare seconds)`);
  if (t === "") throw bad("empty");
  if (/^\d+$/.test(t)) return checked(Number(t) * 1000, bad);
  if (!/^(?:\d+(?:ms|[smhdw]))+$/.test(t)) throw bad(t.startsWith("-") ? "negative" : "not a whole number with a unit");
  let total = 0;
  for (const [, n, unit] of t.matchAll(/(\d+)(ms|[smhdw])/g)) total += Number(n) * (UNIT_MS[unit ?? ""] ?? NaN);
  return checked(total, bad);
}

/**
 * Why `text` is not a lease time to live, or null: a TTL is a duration with an explicit unit, more
 * than zero. `5` (five seconds or five hours?) and `0s` (a lease dead at birth) are mistakes, not
 * requests — from `--ttl` and from `.orchard.json`'s `lease.ttl` alike.
 */
export function ttlProblem(text: string): string | null {
  if (/^\s*\d+\s*$/.test(text)) return "needs a unit (e.g. 30m, 2h)";
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    return (error as Error).message;
  }
  return ms <= 0 ? "is zero; a lease needs time to live" : null;
}

function checked(ms: number, bad: (why: string) => Error): number {
  if (!Number.isSafeInteger(ms)) throw bad("too large");
  return ms;
}

/** Compact form, largest unit first (`1h30m`, `1s500ms`, `0s`); fractions rounded. parseDuration inverts it. */
export function formatDuration(ms: number): string {
  let rest = Math.round(ms);
  if (!Number.isSafeInteger(rest) || rest < 0) throw new RangeError(`duration must be a non-negative number of ms, got ${ms}`);
  let out = "";
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * size;
  }
  return out || "0s";
}
