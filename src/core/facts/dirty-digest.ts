// A digest of a worktree's uncommitted state, for cleanup preconditions: "clean" when there is
// nothing, else sha256 over each changed or untracked path with its status code and its file's
// lstat signature (size, mtime in ns, inode, mode). git status alone does not change when an
// already-modified file is edited again; the signature does. No process is started: the paths
// come from the status that was read anyway. Symbolic links are described, never followed.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { StatusSummary } from "../../git/parse/status.js";
import type { Operation } from "../shared/types.js";

export const CLEAN_DIGEST = "clean";
export const MISSING_DIGEST = "missing";
export const EMPTY_DIGEST = "empty";

function signature(path: string): string {
  const st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.size} ${st.mtimeNs} ${st.ino} ${st.mode}` : "absent";
}

/** Unique ignored files (§4.7) count like untracked ones; disposable ignored files do not. */
export function dirtyDigest(
  worktree: string,
  status: Pick<StatusSummary, "paths">,
  operation: Operation | null,
  ignored: readonly { path: string }[] = [],
): string {
  const paths = status.paths.filter((p) => p.kind !== "ignored");
  if (paths.length === 0 && ignored.length === 0 && operation === null) return CLEAN_DIGEST;
  const lines = [
    ...paths.map((p) => JSON.stringify([p.kind, p.xy ?? "", p.path, p.origPath ?? "", signature(join(worktree, p.path))])),
    ...ignored.map((f) => JSON.stringify(["ignored", "", f.path, "", signature(join(worktree, f.path))])),
  ].sort();
  return createHash("sha256")
    .update(`operation ${operation ?? "none"}\n${lines.join("\n")}`)
    .digest("hex");
}

/** Only worktree-side deletions of tracked files: what an interrupted `git worktree remove` leaves. */
export function onlyDeletions(status: Pick<StatusSummary, "paths">): boolean {
  return status.paths.every((p) => p.kind === "ignored" || (p.kind === "changed" && p.xy === ".D"));
}

/**
 * Digest of a plain directory tree (a husk): every entry's relative path, type and lstat
 * signature. "empty" when it holds no files. Never follows symbolic links.
 */
export function treeDigest(root: string): string {
  const lines: string[] = [];
  const stack = [""];
  while (stack.length) {
    const rel = stack.pop() as string;
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) stack.push(child);
      else lines.push(JSON.stringify([child, signature(join(root, child))]));
    }
  }
  if (lines.length === 0) return EMPTY_DIGEST;
  return createHash("sha256").update(lines.sort().join("\n")).digest("hex");
}
