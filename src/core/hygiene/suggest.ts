// What a person (or an agent) should do about each disposition (pure). Managed worktrees are
// orchard's to clean (`orchard cleanup run`); foreign ones are acted on only by `reap-orphans`
// (dead-owner locks) or by hand, so their suggestions name the exact git command.
import type { Facts } from "../shared/types.js";
import type { Suggestion, Verdict } from "./types.js";
import { shellQuote } from "../shared/shell-quote.js";

export interface SuggestContext {
  /** `--repo <primary>` is added when the report spans several repos. */
  repoPrimary: string | null;
}

export function suggest(f: Pick<Facts, "path" | "handle" | "managed" | "lock" | "merged">, v: Verdict, context: SuggestContext): Suggestion {
  const repoArg = context.repoPrimary ? ` --repo ${shellQuote(context.repoPrimary)}` : "";
  const orchard = (args: string): string => `orchard ${args}${repoArg}`;
  const path = shellQuote(f.path);
  const target = shellQuote(f.handle ?? f.path);
  const has = (code: string): boolean => v.reasons.some((r) => r.code === code);
  // its harness drops it (SPEC v5 §1 harness): its own way, never a command of Orchard's or git's
  const held = v.reasons.find((r) => r.code === "harness_tracked" || r.code === "harness_unverified");
  if (held && "drop" in held) return { action: held.drop, command: null };
  switch (v.disposition) {
    case "live":
      return { action: "keep", command: null };
    case "unknown":
      return { action: "keep; establish the missing fact", command: f.handle || !has("not_listed_by_git") ? orchard(`status ${target}`) : null };
    case "idle":
      if (has("held_by_nested"))
        return { action: "deal with the nested worktree(s) inside first (their own rows), then clean this one", command: orchard("hygiene") };
      return { action: "owner decides", command: orchard(`status ${target}`) };
    case "reclaimable":
      if (f.managed) return { action: "remove", command: orchard("cleanup run") };
      return { action: "remove", command: `${f.lock.locked ? `git worktree unlock -- ${path} && ` : ""}git worktree remove -- ${path}` };
    case "reapable":
      if (f.managed) return { action: "reap", command: orchard("cleanup run") };
      return { action: v.reapableAt ? `reap from ${v.reapableAt} (the lock is younger than the guard)` : "reap", command: orchard("reap-orphans") };
    case "needs_salvage":
      if (f.managed) return { action: "salvage, then remove", command: orchard("cleanup run --include needs_salvage --salvage") };
      if (f.lock.locked && f.merged?.how) return { action: "salvage, then remove", command: orchard("reap-orphans --salvage") };
      return { action: "adopt, salvage, then remove", command: `${orchard(`adopt ${path}`)} && ${orchard("cleanup run --include needs_salvage --salvage")}` };
    case "missing":
      if (f.managed) return { action: "prune this entry", command: orchard("cleanup run") };
      if (f.lock.locked) return { action: "prune this entry", command: orchard("reap-orphans") };
      return { action: "prune this entry", command: `git worktree remove --force --force -- ${path}` };
    case "husk":
      if (has("husk_empty") || has("husk_only_ignored")) return { action: "remove", command: orchard("cleanup run --include husk") };
      if (has("husk_has_files")) return { action: "salvage, then remove", command: orchard("cleanup run --include husk --salvage") };
      return { action: "inspect by hand", command: `ls -la -- ${path}` };
    default: {
      const never: never = v.disposition;
      throw new Error(`unhandled disposition ${String(never)}`);
    }
  }
}
