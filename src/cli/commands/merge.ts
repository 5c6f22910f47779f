// merge: cleanup-wave's one-entry form — one worktree's branch back into the target, then the
// worktree removed and the branch deleted, under the wave's proofs.
import type { Command } from "commander";
import { runWith } from "../run.js";
import { renderWave } from "./reap.js";
import type { MergeOptions, WaveResult } from "../../core/wave/index.js";

/** One sentence for the entry's outcome, then the wave's own lines (reasons, blocks, next steps). */
function renderMerge(r: WaveResult): string {
  const e = r.result.entries[0];
  const head =
    e?.status === "merged_removed"
      ? e.reason === "ok"
        ? `merged ${e.branch} (${r.strategy}), removed its worktree and deleted the branch`
        : e.reason === "already_done"
          ? `${e.branch} was already merged and removed: nothing left to do`
          : `${e.branch} was already merged: removed its worktree and deleted the branch`
      : null;
  return head ? head : renderWave(r);
}

export function register(program: Command): void {
  program
    .command("merge")
    .description("merge one worktree's branch into the target (default: the primary's branch), then remove the worktree and delete the branch")
    .argument("<handle|path>")
    .option("--strategy <strategy>", "merge (a merge commit, --no-ff) | squash | rebase (default merge)")
    .option("--into <path>", "the worktree to merge into (default: the primary)")
    .option("--allow-deletions", "merge a branch that deletes files")
    .option("--allow-live", "remove the worktree even while a process works in it")
    .option("--dry-run", "judge and print what would happen; change nothing")
    .action((target: string, opts: Omit<MergeOptions, "target">, cmd: Command) =>
      runWith(cmd, (o) => o.merge({ target, ...opts }), renderMerge, undefined, { progress: "merge" }),
    );
}
