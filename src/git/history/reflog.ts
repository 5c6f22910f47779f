// Commits a worktree's HEAD reflog alone keeps (SPEC v5 §3.11): a detached worktree whose agent
// moved HEAD away from its commits (a checkout, a reset) holds them only in `<admin>/logs/HEAD`,
// which goes with the worktree. They are work: counted, and kept by a salvage as extra parents.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { git } from "../run.js";
import { readPlainFile } from "../input/plain-file.js";

/** A reflog larger than this is not read: unknown. */
const REFLOG_MAX = 4 * 1_048_576;
/** At most this many reflog commits are asked about (the newest). */
const REFLOG_TIPS = 200;
const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The commits `logs/HEAD` records HEAD at, newest last, without `head` and the null id. */
export function parseReflogTips(text: string, head: string | null): string[] {
  const tips: string[] = [];
  for (const line of text.split("\n")) {
    const sha = line.split(" ", 2)[1] ?? "";
    if (SHA.test(sha) && !/^0+$/.test(sha) && sha !== head) tips.push(sha);
  }
  return [...new Set(tips.reverse())].slice(0, REFLOG_TIPS).reverse();
}

/**
 * The reflog's commits that no ref and not `head` reach (`rev-list <tips> --not --all <^head>`):
 * `count` of them, and `tips`, the reflog entries among them (what a salvage keeps as parents).
 * null when the reflog cannot be read as a plain file (unknown, never "none").
 */
export async function readReflogOnly(cwd: string, admin: string, head: string | null): Promise<{ count: number; tips: string[] } | null> {
  const file = join(admin, "logs", "HEAD");
  if (!lstatSync(file, { throwIfNoEntry: false })) return { count: 0, tips: [] }; // git keeps no reflog here: nothing only in it
  const bytes = readPlainFile(file, REFLOG_MAX);
  if (bytes === null) return null;
  const tips = parseReflogTips(bytes.toString("utf8"), head);
  if (tips.length === 0) return { count: 0, tips: [] };
  const r = await git(["rev-list", "--ignore-missing", ...tips, "--not", "--all", ...(head ? [head] : [])], { cwd });
  const only = new Set(r.stdout.split("\n").filter(Boolean));
  return { count: only.size, tips: tips.filter((t) => only.has(t)) };
}
