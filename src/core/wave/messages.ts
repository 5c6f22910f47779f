// The words a merge writes into the user's history (SPEC v5 §3.9). `orchard merge` writes git's:
// `Merge branch '<b>'` (with ` into <target>` unless the target is main or master, as git's
// merge.suppressDest default does), and a squash lists the squashed commits as `git merge
// --squash` does; `--message` overrides either. `cleanup-wave` is GSD's drop-in and keeps GSD's
// wording (`chore: merge executor worktree (<b>)`), which its orchestrators look for.
import { readSquashedLog } from "../../git/read.js";

export interface Wording {
  style: "git" | "gsd";
  /** The caller's own message (`--message`): used as it is, for a merge or a squash. */
  message?: string | undefined;
}

export const GSD_WORDING: Wording = { style: "gsd" };

const gsdMerge = (branch: string): string => `chore: merge executor worktree (${branch})`;
const gitMerge = (branch: string, into: string | null): string =>
  `Merge branch '${branch}'${into === null || into === "main" || into === "master" ? "" : ` into ${into}`}`;

/** The merge commit's message. */
export function mergeMessage(wording: Wording, branch: string, into: string | null): string {
  if (wording.message !== undefined) return wording.message;
  return wording.style === "gsd" ? gsdMerge(branch) : gitMerge(branch, into);
}

/** The squash commit's message: git's lists every squashed commit (`tip` not on `targetTip`). */
export async function squashMessage(cwd: string, wording: Wording, at: { branch: string; targetTip: string; tip: string }): Promise<string> {
  if (wording.message !== undefined) return wording.message;
  if (wording.style === "gsd") return `chore: squash executor worktree (${at.branch})`;
  return `Squashed commit of the following:\n\n${await readSquashedLog(cwd, at.targetTip, at.tip)}`;
}

/** The first lines a merge commit of `branch` made by a wave or `orchard merge` may carry (a rerun finding it done). */
export function mergeSubjects(branch: string, into: string | null): string[] {
  return [gsdMerge(branch), gitMerge(branch, into)];
}
