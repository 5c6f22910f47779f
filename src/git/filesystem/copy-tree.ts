// One directory tree copied by one `cp` process (GNU coreutils, Linux): the fast path of
// bootstrap.share's copies (core/share/tree.ts). Per file, Node's copyFile goes through libuv's
// thread pool (a futex, an eventfd write and an epoll wake-up a file, and a promise), which cost
// more CPU than the clone itself: on a loop-mounted XFS, mocha's 17,234 files cloned in 2.2–2.9 s
// of CPU by Node (8 at a time) against 0.8–1.2 s by one `cp` (issue 50, bench/RESULTS.md). `cp`
// runs under umask 0 without `--preserve`: each file and directory gets its source's mode (the
// set-id bits aside), and no ACL or xattr is read or written. The target directory must exist
// (made by the caller, exclusively); `cp -T` fills it. Lives in src/git, the only layer that
// spawns processes. A failure is data (false with cp's message): the caller copies by itself.
import { resolve } from "node:path";
import { runProcess } from "../run.js";

export type CpMethod = "clone" | "hardlink" | "copy";

const FLAG: Record<CpMethod, string> = { clone: "--reflink=always", hardlink: "--link", copy: "--reflink=never" };

/** `umask 0`, then `cp` with the words after the script (as `sh -c` passes them). */
const SCRIPT = 'umask 0 && exec cp "$@"';

export interface CpResult {
  ok: boolean;
  /** cp's message when it failed (or why it could not run). */
  why: string;
}

/** Copies the entries of `source` into the existing directory `target` (recursively, links as links). */
export async function copyTreeByCp(source: string, target: string, method: CpMethod, timeoutMs = 30 * 60_000): Promise<CpResult> {
  if (process.platform !== "linux") return { ok: false, why: "not Linux" };
  const args = ["-c", SCRIPT, "sh", "-R", "-P", FLAG[method], "-T", "--", resolve(source), resolve(target)];
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };
  const r = await runProcess("sh", args, { cwd: "/", env, timeoutMs }).catch((error: unknown) => ({ error: error as Error }));
  if ("error" in r) return { ok: false, why: r.error.message };
  if (r.timedOut) return { ok: false, why: `cp did not finish within ${Math.round(timeoutMs / 1000)} s` };
  return r.exitCode === 0 ? { ok: true, why: "" } : { ok: false, why: r.stderr.trim().split("\n").slice(0, 3).join("; ") || `cp exited ${r.exitCode}` };
}
