// merge: one worktree's branch back into the target, then the worktree removed and the branch
// deleted, under cleanup-wave's proofs; git's commit message (or --message). Its output speaks
// of this one worktree.
import type { Command } from "commander";
import { runWith } from "../run.js";
import { reasonLines } from "../render.js";
import { humanTimes } from "../time.js";
import { stdoutDisplay } from "../terminal.js";
import type { MergeOptions, MergeResult } from "../../core/wave/index.js";

function renderMerge(r: MergeResult): string {
  const name = r.handle ?? r.branch;
  const into = r.into.branch ?? r.into.path;
  const paint = stdoutDisplay().paint;
  const head: Record<MergeResult["action"], string> = {
    merged: `merged ${r.branch} into ${into} (${r.strategy}), removed its worktree and deleted the branch`,
    already_merged: `${r.branch} was already in ${into}: removed its worktree and deleted the branch`,
    already_done: `${r.branch} was already merged and removed: nothing left to do`,
    planned: `would merge ${r.branch} into ${into} (${r.strategy}): ${r.steps?.join(", ") || "nothing to do"}; nothing changed`,
    blocked: `${paint("kept", "red")} ${name}: ${r.branch} not merged into ${into}`,
    branch_kept: `merged ${r.branch} into ${into} (${r.strategy}) and removed its worktree; the branch is kept`,
  };
  const lines = [head[r.action]];
  if (r.action !== "planned" && r.action !== "already_done") lines.push(`  path    ${r.path}`);
  const reasons = r.reasons.map((x) => ({ ...x, message: humanTimes(x.message) }));
  lines.push(...reasonLines(r.action === "branch_kept" ? "note:" : "refused:", reasons, { branch: r.branch, handle: r.handle, path: r.path }));
  for (const n of r.notes ?? []) lines.push(`  note: ${n.code}: ${n.message}`);
  return lines.join("\n");
}

export function register(program: Command): void {
  program
    .command("merge")
    .description("merge one worktree's branch into the target (default: the primary's branch), then remove the worktree and delete the branch")
    .argument("<handle|path>")
    .option("--strategy <strategy>", "merge (a merge commit, --no-ff) | squash | rebase (default merge)")
    .option("--message <text>", "the commit message (default git's: Merge branch '<branch>'; a squash lists the squashed commits)")
    .option("--into <path>", "the worktree to merge into (default: the primary)")
    .option("--allow-deletions", "merge a branch that deletes files")
    .option("--allow-live", "remove the worktree even while a process works in it")
    .option("--dry-run", "judge and print what would happen; change nothing")
    .action((target: string, opts: Omit<MergeOptions, "target">, cmd: Command) =>
      runWith(cmd, (o) => o.merge({ target, ...opts }), renderMerge, undefined, { progress: "merge" }),
    );
}
