// `orchard explain [code]` and the `orchard_explain` MCP tool: what a reason code or a disposition
// means and what to do next, from the one reason table (shared/reasons/) and SPEC §3.6's table of
// dispositions. No code lists them all; an unknown one is a usage error naming the nearest codes.
import { REASON_TEXT, type ReasonCode } from "../shared/reasons/reasons.js";
import { REASON_REMEDY } from "../shared/reasons/remedies.js";
import { usageError } from "../shared/errors.js";

export const DISPOSITION_TEXT = {
  live: ["a live owner holds it (a lease, a lock's pid, or a process working inside)", "nothing: it is kept"],
  reclaimable: ["not live, clean, its work preserved, and released (or active with no activity for idleAfter)", "orchard cleanup run"],
  reapable: ["locked by a dead owner, clean, merged", "orchard cleanup run (a foreign worktree: orchard reap-orphans)"],
  needs_salvage: ["not live, released or its owner dead, and dirty or its work not preserved", "orchard cleanup run --include needs_salvage --salvage"],
  idle: [
    "not live, active, no owner, and its work not preserved or used within idleAfter",
    "its owner decides: orchard status <handle>, then orchard release <handle>",
  ],
  missing: ["registered with git, its directory gone", "orchard cleanup run prunes the entry"],
  husk: ["a directory under the managed root that git does not list", "orchard cleanup run --include husk (--salvage when it holds files)"],
  unknown: ["a fact could not be established; it is kept", "orchard status <handle> shows which fact"],
} as const;

export type DispositionCode = keyof typeof DISPOSITION_TEXT;

export interface Explained {
  code: string;
  kind: "reason" | "disposition";
  meaning: string;
  remedy: string | null;
}

export type ExplainResult = ({ ok: true } & Explained) | { ok: true; codes: Explained[] };

function entryOf(code: string): Explained | null {
  if (Object.hasOwn(REASON_TEXT, code))
    return { code, kind: "reason", meaning: REASON_TEXT[code as ReasonCode], remedy: REASON_REMEDY[code as ReasonCode] ?? null };
  if (Object.hasOwn(DISPOSITION_TEXT, code)) {
    const [meaning, remedy] = DISPOSITION_TEXT[code as DispositionCode];
    return { code, kind: "disposition", meaning, remedy };
  }
  return null;
}

const allCodes = (): string[] => [...Object.keys(DISPOSITION_TEXT), ...Object.keys(REASON_TEXT)];

/** Edit distance of two short words (Levenshtein). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length] as number;
}

/** The codes nearest to `word`: those containing it, else the closest by edit distance; at most three. */
export function nearCodes(word: string): string[] {
  const w = word.toLowerCase().replace(/[-\s]/g, "_");
  const limit = Math.max(2, Math.floor(w.length / 3));
  return allCodes()
    .map((c) => ({ c, d: distance(w, c) }))
    .filter((x) => x.d <= limit || x.c.includes(w) || (w.length >= 4 && w.includes(x.c)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((x) => x.c);
}

/** One code explained, or every code when none is given; an unknown code is exit 2 with its near matches. */
export function explain(code?: string): ExplainResult {
  if (code === undefined || code === "") return { ok: true, codes: allCodes().map((c) => entryOf(c) as Explained) };
  const found = entryOf(code);
  if (found) return { ok: true, ...found };
  const near = nearCodes(code);
  throw usageError(
    "invalid_argument",
    `unknown reason code or disposition ${JSON.stringify(code)}${near.length ? `; did you mean ${near.join(", ")}?` : ""} (orchard explain lists them all)`,
  );
}
