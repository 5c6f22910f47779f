// A worktree's status (git status --porcelain=v2), alone or many at once through a few shells,
// each pinned to its worktree (pin.ts) and never asked where a block says its answer would be
// untrue (boundary.ts) or a filter that may not run would decide it (programs/attributes.ts).
import { DEFAULT_GIT_TIMEOUT_MS, git, runProcess } from "./run.js";
import { statusArgs } from "./status-args.js";
import { gitEnv } from "./env.js";
import { blockedFilterError } from "./programs/attributes.js";
import { worktreeBlockError } from "./input/boundary.js";
import { pinArgs } from "./input/pin.js";
import { parseStatusV2, type StatusSummary } from "./parse/status.js";

/** `ignored`: also list ignored paths, an ignored directory as one entry ending in `/` (`--ignored=matching`). */
export async function readStatus(worktree: string, options: { ignored?: boolean } = {}): Promise<StatusSummary> {
  const unreadable = worktreeBlockError(worktree);
  if (unreadable) throw unreadable;
  const [r, blocked] = await Promise.all([git(statusArgs(options.ignored ?? false), { cwd: worktree }), blockedFilterError(worktree)]);
  if (blocked) throw blocked;
  return parseStatusV2(r.stdout);
}

/**
 * readStatus of many worktrees through one `sh` per slice: a big node process pays milliseconds
 * to fork each git (its page tables), a shell a fraction of one. After each worktree's output the
 * shell prints NUL, the exit code, NUL — status -z never prints an empty record, so the empty
 * record marks the end. A worktree whose git failed, a slice that failed as a whole, and any host
 * without `sh` (Windows) get readStatus of their own, so its error says what git said.
 */
/** How many chunks each status shell takes in turn (readStatuses). */
const CHUNKS_PER_SHELL = 4;

export async function readStatuses(
  worktrees: readonly string[],
  options: { ignored?: boolean; slices: number; signal?: AbortSignal },
): Promise<(StatusSummary | Error)[]> {
  // a worktree whose answer would be untrue or would never come (boundary.ts) is not asked at all; each is
  // looked at just before its chunk starts (below), so the first shells run while the later chunks are looked at
  const out: (StatusSummary | Error | null)[] = worktrees.map(() => null);
  const looked = worktrees.map(() => false);
  const look = (i: number): boolean => {
    looked[i] = true;
    return (out[i] = worktreeBlockError(worktrees[i] as string)) === null;
  };
  if (process.platform !== "win32" && worktrees.length > 1) {
    const asked = worktrees.map((_, i) => i);
    // `slices` shells at a time, each taking the next chunk of a few worktrees when it is done: a shell
    // whose worktrees are quick takes more (no core idles while another shell still has a long list),
    // and each chunk's answers are parsed while the next chunks run
    const running = Math.max(1, options.slices);
    const size = Math.max(1, Math.ceil(asked.length / (running * CHUNKS_PER_SHELL)));
    // each worktree comes with its git dir: the status is pinned to it, as every git call is (pin.ts)
    const status = statusArgs(options.ignored ?? false).join(" ");
    const script = `while [ $# -gt 0 ]; do d=$1; g=$2; shift 2; if [ -n "$g" ]; then git -C "$d" "--git-dir=$g" "--work-tree=$d" ${status} 2>/dev/null; else git -C "$d" ${status} 2>/dev/null; fi; printf '\\0%s\\0' "$?"; done`;
    const slices = Array.from({ length: Math.ceil(asked.length / size) }, (_, k) => k * size);
    let next = 0;
    const shell = async (): Promise<void> => {
      while (next < slices.length && !options.signal?.aborted) await chunk(slices[next++] as number);
    };
    const chunk = async (start: number): Promise<void> => {
      const indices = asked.slice(start, start + size).filter(look);
      if (indices.length === 0) return;
      const slice = indices.map((i) => worktrees[i] as string);
      const pairs = slice.flatMap((d) => [d, pinArgs(d)[0]?.slice("--git-dir=".length) ?? ""]);
      const r = await runProcess("sh", ["-c", script, "sh", ...pairs], {
        cwd: "/",
        env: gitEnv(slice[0]!, { read: true }), // one repository's worktrees: one policy
        timeoutMs: DEFAULT_GIT_TIMEOUT_MS + 2_000 * slice.length,
        ...(options.signal ? { signal: options.signal } : {}),
      }).catch(() => null);
      if (!r || r.exitCode !== 0 || r.timedOut) return; // each worktree of the slice is read alone below (unless aborted)
      const tokens = r.stdout.split("\0");
      let at = 0;
      for (let k = 0; k < slice.length && at < tokens.length; k++) {
        const end = tokens.indexOf("", at);
        if (end < 0 || tokens[end + 1] !== "0") {
          at = end < 0 ? tokens.length : end + 2;
          continue; // this git failed: read alone below
        }
        try {
          out[indices[k] as number] = parseStatusV2(
            tokens
              .slice(at, end)
              .map((t) => `${t}\0`)
              .join(""),
          );
        } catch {
          // not what status prints: read alone below
        }
        at = end + 2;
      }
    };
    await Promise.all(Array.from({ length: Math.min(running, slices.length) }, shell));
  }
  if (options.signal?.aborted) return out.map((s) => s ?? new Error("not read: the statuses were no longer wanted")); // no one-by-one reads
  return Promise.all(
    out.map(async (s, i) => {
      if (!looked[i] && !look(i)) return out[i] as Error; // no shell (one worktree, Windows): looked at here
      if (s instanceof Error) return s;
      const blocked = s ? await blockedFilterError(worktrees[i] as string) : null;
      return blocked ?? s ?? (await readStatus(worktrees[i] as string, options).catch((error: unknown) => error as Error));
    }),
  );
}

/** `git diff --quiet` on the index and worktree of a checkout: false when tracked files changed. */
export async function hasTrackedChanges(worktree: string): Promise<boolean> {
  const unreadable = worktreeBlockError(worktree);
  if (unreadable) throw unreadable;
  const [r, blocked] = await Promise.all([git(["status", "--porcelain=v2", "-z", "--untracked-files=no"], { cwd: worktree }), blockedFilterError(worktree)]);
  if (blocked) throw blocked;
  return r.stdout.length > 0;
}
