// The refs a decision about one worktree or branch reads, instead of every branch of a fleet (a
// `for-each-ref` of 1,000 branches costs git 60–100 ms): the refs it names, the remote-tracking
// refs it needs, and the local branches readDefaultBranch can name — the configured default, main,
// master, or the one origin/HEAD names (read next when it is none of these: missingDefault). A
// repository without remotes and without a configured default (init.defaultBranch may name any
// branch) reads every branch.
import { join } from "node:path";
import { readPlainText } from "../files.js";
import type { RepoContext } from "./repo.js";

type Repo = Pick<RepoContext, "commonDir" | "remotes" | "config">;

/** The branch a loose origin/HEAD file names: a hint that may save a second read, never a fact (git's listing decides). */
function originHeadHint(commonDir: string): string | null {
  // null: packed, another ref store, none, or not a plain file
  return /^ref: refs\/remotes\/origin\/(.+)\n?$/.exec(readPlainText(join(commonDir, "refs", "remotes", "origin", "HEAD"), 4096) ?? "")?.[1] ?? null;
}

/** for-each-ref patterns for `refs` (full names) plus `remotes` and the default's candidates; null: read every branch. */
export function focusedPatterns(repo: Repo, refs: readonly (string | null | undefined)[], remotes: string): string[] | null {
  const configured = repo.config.config.defaultBranch;
  if (repo.remotes.length === 0 && !configured) return null;
  const defaults = [configured, "main", "master", configured ? null : originHeadHint(repo.commonDir)].filter((name): name is string => !!name);
  return [...new Set([...refs.filter((ref): ref is string => !!ref), remotes, ...defaults.map((name) => `refs/heads/${name}`)])];
}

/** What a focused read must add for readDefaultBranch: every branch when origin/HEAD is not listed (none, or dangling: git is asked for its target), the branch it names when no pattern covered it; null: nothing. */
export function missingDefault(repo: Repo, patterns: readonly string[], originHead: { symref: string | null } | undefined): string[] | null {
  if (repo.config.config.defaultBranch) return null;
  if (!originHead) return ["refs/heads"];
  const named = originHead.symref?.startsWith("refs/remotes/origin/") ? `refs/heads/${originHead.symref.slice("refs/remotes/origin/".length)}` : null;
  return named === null || patterns.includes(named) ? null : [named];
}
