// A long-lived process's program guards (programs/read.ts), each kept with what it was read from:
// the environment that points git at its config files, and every file git reads config from for
// the repository (the system's, the user's, the repository's config, every worktree's
// config.worktree where git reads them (programs/read.ts), and any other file an answer came
// from), each as its device, inode, size and times in nanoseconds, or its absence. A guard is used again only while all of that is the same:
// `git config` writes through a lock file and a rename (a new inode), an edit in place moves the
// change time, and a new worktree adds a path. The MCP server thus pays one `git config` process
// (≈ 4 ms and a fork of a large process) only when the configuration changed, not on every call.
//
// Kept only when nothing can hide a change: no include anywhere (an included file, or one a
// condition names, could appear or change without any file above changing), and every file older
// than RACY_MS at the read — a file changed within the clock's granularity around the read could
// change again with the very same times and size (git's own "racy" rule for its index). Otherwise
// the guard is read afresh on the next call, as before.
import { statSync } from "node:fs";
import type { ProgramGuard } from "../programs/policy.js";

/** Files changed less than this before the read are not trusted to show a later change by their times. */
export const RACY_MS = 2_000;

interface Kept {
  guard: ProgramGuard;
  /** Every file it was read from (the configuration's files and the answers' origins). */
  files: readonly string[];
  signature: string;
}
const kept = new Map<string, Kept>();

const ENV = /^(GIT_CONFIG|HOME$|XDG_CONFIG_HOME$)/;

/** A file's device, inode, size and times (nanoseconds), or its absence; and when it last changed. */
export function stamp(path: string): { text: string; changedMs: number } {
  const st = statSync(path, { bigint: true, throwIfNoEntry: false });
  if (!st) return { text: `${path}\0-`, changedMs: 0 };
  const changedMs = Number((st.ctimeNs > st.mtimeNs ? st.ctimeNs : st.mtimeNs) / 1_000_000n);
  return { text: `${path}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`, changedMs };
}

function signature(files: readonly string[]): { text: string; newestMs: number } {
  const env = Object.keys(process.env)
    .filter((k) => ENV.test(k))
    .sort()
    .map((k) => `${k}=${process.env[k]}`);
  const stamps = [...new Set(files)].sort().map(stamp);
  return { text: [...env, ...stamps.map((s) => s.text)].join("\n"), newestMs: Math.max(0, ...stamps.map((s) => s.changedMs)) };
}

const keyOf = (cwd: string, commonDir: string): string => `${cwd}\0${commonDir}`;

/** The guard kept for this repository, if every file it was read from is as it was. */
export function cachedGuard(cwd: string, commonDir: string, files: readonly string[]): ProgramGuard | undefined {
  const entry = kept.get(keyOf(cwd, commonDir));
  if (!entry) return undefined;
  if (signature([...files, ...entry.files]).text === entry.signature) return entry.guard; // a new file (a worktree's) changes it too
  kept.delete(keyOf(cwd, commonDir));
  return undefined;
}

/** Keeps a guard just read (`readAt`: before git read it) when nothing can hide a later change; see above. */
export function rememberGuard(
  cwd: string,
  commonDir: string,
  files: readonly string[],
  read: { guard: ProgramGuard; readAt: number; includes: boolean },
): void {
  kept.delete(keyOf(cwd, commonDir));
  if (read.includes) return;
  const now = signature(files);
  if (now.newestMs >= read.readAt - RACY_MS) return;
  kept.set(keyOf(cwd, commonDir), { guard: read.guard, files: [...new Set(files)], signature: now.text });
}

/** The signature of the guard kept for this repository (the configuration it was read from), if one is kept. */
export function keptGuardSignature(cwd: string, commonDir: string): string | undefined {
  return kept.get(keyOf(cwd, commonDir))?.signature;
}

/** Forgets every kept guard (tests; a process that wants every read to go to git). */
export function forgetGuards(): void {
  kept.clear();
}
