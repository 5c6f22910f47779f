// Writing out a filesystem's dirty pages in one pass (`sync -f`, syncfs(2)): Node has no syncfs.
// Before a fresh install's tree is cloned by reflink (bootstrap.share's `share: keep`), XFS and
// btrfs write out each file's dirty pages at its clone, one small synchronous write per file; one
// pass first lets the kernel batch them (issue 50: on a loop-mounted XFS, 16,578 files after an
// install, the clone alone took 2.1–3.7 s, the pass and the clone 1.6–2.9 s). Linux only (macOS's
// `sync` has no -f); a failure or a timeout changes nothing but the time: the clone writes out
// what is left. Lives in src/git, the only layer that spawns processes.
import { runProcess } from "../run.js";

/** Writes out the dirty pages of the filesystem that holds `path`; false when it could not. */
export async function flushFilesystem(path: string, timeoutMs = 30_000): Promise<boolean> {
  if (process.platform !== "linux") return false;
  const r = await runProcess("sync", ["-f", "--", path], { cwd: "/", env: process.env, timeoutMs }).catch(() => null);
  return r !== null && !r.timedOut && r.exitCode === 0;
}
