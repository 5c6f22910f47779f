// A worktree whose git facts cannot be read truthfully because of something an agent wrote
// (git/boundary.ts): its block, as a fact and as the reason every verdict reports (SPEC v4 §4.1).
import { worktreeBlockError, type WorktreeBlock } from "../../git/read.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";

/** Why the worktree at `path` cannot be read, or null (a few lstats of its admin dir). */
export function readBlock(path: string): WorktreeBlock | null {
  return worktreeBlockError(path)?.block ?? null;
}

/** The reason a verdict gives for a blocked worktree: its code names the key or the file. */
export function blockReason(block: WorktreeBlock): Reason {
  switch (block.code) {
    case "worktree_relocated":
      return reason("worktree_relocated", { key: block.key, value: block.value, file: block.file }, `${block.key} in ${block.file}`);
    case "config_unvetted":
      return reason("config_unvetted", { file: block.file, why: block.why }, `${block.file}: ${block.why}`);
    case "admin_file_special":
      return reason("admin_file_special", { file: block.file, kind: block.kind }, `${block.file} is ${block.kind}`);
    case "walk_file_special":
      return reason("walk_file_special", { file: block.file, kind: block.kind }, `${block.file} is ${block.kind}`);
  }
}
