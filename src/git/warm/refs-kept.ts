// A warm process's answers to a focused snapshot's `for-each-ref` (early.ts startSnapshotReads:
// a status or an exact add of one worktree), kept with what git reads them from, and given again
// while all of that is as it was: a git process (≈ 2 ms of CPU beside the listing and the status
// on every call) saved where nothing changed. What the answer depends on, and how a change shows:
// - the refs: the packed refs file and every loose ref or directory under each pattern (or its
//   absence), as device, inode, size and nanosecond times (git writes a ref through a lock file and
//   a rename: a new inode, and the directory's times move; an edit in place moves the change time);
// - the configuration (each branch's upstream): the program guard kept for the repository
//   (guard-cache.ts) watches every file git reads it from; it is checked now, and its signature is
//   part of this one;
// - the graph (the tracking counts): ids fix it only without a shallow boundary (graph-fixed.ts;
//   replace refs and grafts never reach Orchard's git), looked for at every call;
// - the environment of the call (a namespace, another config), compared whole.
// Nothing is kept where a stamp cannot tell: no guard kept (a trusted repository, an include, a
// configuration changed within the racy margin), a pattern with wildcards, a symlink, more than
// MAX_ENTRIES loose refs, a reftable, an upstream or symref outside the patterns, anything changed
// within RACY_MS of the read (a later change could keep the same times), or a failed answer.
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { RACY_MS, stamp } from "./guard-cache.js";
import { keptConfigSignature } from "../programs/read.js";
import { graphFixedByIds } from "./graph-fixed.js";
import type { ProcessResult } from "../result.js";

const MAX_ENTRIES = 256;
const KEEP = 64;
const kept = new Map<string, { result: ProcessResult; signature: string }>();
/**
 * Common dirs whose loose refs under a pattern were more than MAX_ENTRIES (a fleet's hundreds of
 * pushed branches): not stamped again on every call (MAX_ENTRIES stats for nothing) until the packed
 * refs file changes (`pack-refs`, git's own gc) or RECHECK calls have passed.
 */
const crowded = new Map<string, { packed: string; calls: number }>();
const RECHECK = 64;

interface Signature {
  text: string;
  newestMs: number;
}

/** Stamps of a loose ref path and of everything below it; "crowded" past MAX_ENTRIES, false where a stamp cannot tell. */
function stampTree(path: string, into: { text: string; changedMs: number }[]): boolean | "crowded" {
  const st = lstatSync(path, { throwIfNoEntry: false });
  into.push(stamp(path));
  if (into.length > MAX_ENTRIES) return "crowded";
  if (!st || st.isFile()) return true;
  if (!st.isDirectory()) return false; // a symlinked ref: git may read through it
  for (const name of readdirSync(path).sort()) {
    const below = stampTree(join(path, name), into);
    if (below !== true) return below;
  }
  return true;
}

function signatureOf(primary: string, commonDir: string, patterns: readonly string[], env: NodeJS.ProcessEnv): Signature | null {
  try {
    return signatureNow(primary, commonDir, patterns, env);
  } catch {
    return null; // a path that cannot be read (a file where a directory was expected, no permission): no stamp tells
  }
}

function signatureNow(primary: string, commonDir: string, patterns: readonly string[], env: NodeJS.ProcessEnv): Signature | null {
  const packed = stamp(join(commonDir, "packed-refs"));
  const known = crowded.get(commonDir);
  if (known && known.packed === packed.text && ++known.calls % RECHECK !== 0) return null;
  const config = keptConfigSignature(primary, commonDir);
  if (config === undefined || !graphFixedByIds(commonDir) || existsSync(join(commonDir, "reftable"))) return null;
  const stamps = [packed];
  for (const pattern of patterns) {
    if (!/^refs\/[^*?[\\]*$/.test(pattern) || pattern.split("/").some((part) => part === ".." || part === "." || part === "")) return null;
    const tree = stampTree(join(commonDir, pattern), stamps);
    if (tree === "crowded") crowded.set(commonDir, { packed: packed.text, calls: 0 });
    if (tree !== true) return null;
  }
  crowded.delete(commonDir);
  const keys = Object.keys(env).sort();
  const text = [config, JSON.stringify(keys.map((k) => [k, env[k]])), ...stamps.map((s) => s.text)].join("\n");
  return { text, newestMs: Math.max(0, ...stamps.map((s) => s.changedMs)) };
}

/** Every upstream and symref target the answer names lies under one of the patterns (so its stamp is in the signature). */
function covered(result: ProcessResult, patterns: readonly string[]): boolean {
  const under = (ref: string): boolean => patterns.some((p) => ref === p || ref.startsWith(`${p}/`));
  return result.stdout
    .split("\n")
    .filter(Boolean)
    .every((record) => {
      const [, , upstream, , symref] = record.split("\0");
      return (!upstream || under(upstream)) && (!symref || under(symref));
    });
}

/**
 * For `for-each-ref … -- patterns` in `primary` (the repository's common dir `commonDir`, git's
 * environment `env`): the kept answer, while everything it was read from is as it was; otherwise
 * `keep`, to be called with git's answer to a query started after this call.
 */
export function keptRefs(
  args: readonly string[],
  patterns: readonly string[],
  where: { primary: string; commonDir: string; env: NodeJS.ProcessEnv },
): { answer: ProcessResult } | { keep: (result: ProcessResult) => void } | null {
  const key = JSON.stringify([where.primary, ...args]);
  const before = signatureOf(where.primary, where.commonDir, patterns, where.env);
  const known = kept.get(key);
  kept.delete(key);
  if (before === null) return null;
  if (known?.signature === before.text) {
    kept.set(key, known); // most recently used last
    return { answer: { ...known.result } };
  }
  const readAt = Date.now();
  return {
    keep: (result) => {
      if (result.exitCode !== 0 || result.timedOut || before.newestMs >= readAt - RACY_MS || !covered(result, patterns)) return;
      kept.set(key, { result: { ...result }, signature: before.text });
      for (const old of kept.keys()) if (kept.size > KEEP) kept.delete(old);
    },
  };
}

/** Forgets every kept answer (tests). */
export function forgetRefs(): void {
  kept.clear();
  crowded.clear();
}
